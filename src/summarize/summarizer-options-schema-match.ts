// Each schema of summarizer-options-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { LlmSummarizerOptions } from './llm-summarizer.js';
import type { createExtractiveSummarizer } from './extractive-summarizer.js';
import type { MemorySummaryCache } from './memory-summary-cache.js';
import type { extractiveSchema, llmSchema, memoryCacheSchema } from './summarizer-options-schema.js';

export const LLM_SUMMARIZER_OPTIONS_MATCH: SchemaFor<LlmSummarizerOptions, typeof llmSchema> = true;
export const EXTRACTIVE_OPTIONS_MATCH: SchemaFor<
  NonNullable<Parameters<typeof createExtractiveSummarizer>[0]>,
  typeof extractiveSchema
> = true;
export const MEMORY_CACHE_OPTIONS_MATCH: SchemaFor<
  NonNullable<ConstructorParameters<typeof MemorySummaryCache>[0]>,
  typeof memoryCacheSchema
> = true;
