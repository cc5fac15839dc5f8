export { DEFAULT_FIT_SLACK, fit } from './fit.js';
export { packSections } from './pack-sections.js';
export { shrinkText } from './shrink-text.js';

export type { OverflowStrategy, PackedSection, PackOptions, PackResult, Section } from './types.js';
