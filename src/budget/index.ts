export { DEFAULT_FIT_SLACK, DEFAULT_MAX_RENDERS, fit } from './fit.js';
export { DEFAULT_MIN_SECTION_TOKENS, DEFAULT_SEPARATOR, packSections } from './pack-sections.js';
export { omissionMarker, shrinkText } from './shrink-text.js';
export type { FitLimits, FitResult, Measured } from './fit.js';
export type { OverflowStrategy, PackedSection, PackOptions, PackResult, Section } from './types.js';
