export { DiskSummaryCache, DEFAULT_SUMMARY_CACHE_DIR } from './disk-summary-cache.js';
export { createExtractiveSummarizer, summarizeExtractive } from './extractive-summarizer.js';
export { createLlmSummarizer, SUMMARY_PROMPT_VERSION, SUMMARY_SYSTEM_PROMPT } from './llm-summarizer.js';
export { MemorySummaryCache } from './memory-summary-cache.js';
export { summaryTargetTokens } from './summary-target.js';
export { summaryCacheKey, withSummaryCache } from './with-summary-cache.js';
export type { LlmSummarizerOptions } from './llm-summarizer.js';
export type { SummarizeRequest, Summarizer, SummaryCache } from './types.js';
