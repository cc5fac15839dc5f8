export { definedFields } from './defined-fields.js';
export { importOptional, isModuleNotFound, missingDependency } from './import-optional.js';
export { formatPath, inputProblems } from './input-problems.js';
export { inputError, parseInput } from './parse-input.js';
export { suggestKey } from './suggest-key.js';
export type { DescribePath, InputProblem } from './input-problems.js';
export type { ParseInputOptions } from './parse-input.js';
export { abortSignalOption, envOption, functionOption, objectWithMethods, stringMapOption } from './option-schemas.js';
export { toSnakeCase, toWireCase } from './wire-case.js';
