// Each schema of summarizer-options-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { LlmSummarizerOptions } from './llm-summarizer.js';
import type { llmSchema } from './summarizer-options-schema.js';

export const LLM_SUMMARIZER_OPTIONS_MATCH: SchemaFor<LlmSummarizerOptions, typeof llmSchema> = true;
