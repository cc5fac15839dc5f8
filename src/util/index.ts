export { definedFields } from './defined-fields.js';
export { describeJsonError } from './json-syntax-error.js';
export { importOptional, isModuleNotFound, missingDependency } from './import-optional.js';

export { safeValue } from './safe-value.js';
export { inputError, parseInput } from './parse-input.js';
export { refuseProtoKey } from './refuse-proto-key.js';
export { suggestKey } from './suggest-key.js';

export { abortSignalOption, envOption, functionOption, objectWithMethods, stringMapOption } from './option-schemas.js';
export { toSnakeCase, toWireCase } from './wire-case.js';
export type { FileFormatFor, SchemaFor, SnakeCase } from './schema-for.js';
