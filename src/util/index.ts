export { definedFields } from './defined-fields.js';
export { importOptional, isModuleNotFound, missingDependency } from './import-optional.js';
