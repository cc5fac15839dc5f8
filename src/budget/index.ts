export { DEFAULT_MIN_SECTION_TOKENS, DEFAULT_SEPARATOR, packSections, packSectionsUnchecked } from './pack-sections.js';
export { omissionMarker, shrinkText } from './shrink-text.js';
export type { OverflowStrategy, PackedSection, PackOptions, PackResult, Section } from './types.js';
