export { definedFields } from './defined-fields.js';
