/** Shared types of the summarize module. */

/** What a caller asks of one summary. */
export interface SummarizeRequest {
  /**
   * Length to aim for, in tokens. A summarizer treats it as a target, not a hard cap: the caller
   * (usually `packSections`) decides whether the result fits.
   * @default summaryTargetTokens(text) (25% of the text)
   */
  targetTokens?: number;
  /** Cancels an LLM call; ignored by offline summarizers. */
  signal?: AbortSignal;
}

/**
 * Turns a text into a shorter one that keeps what a reader needs to avoid repeating it: the
 * topics covered and the key recommendations. Implementations may fail (an LLM call); callers
 * must always have a fallback (DESIGN.md: "always with a deterministic fallback").
 */
export interface Summarizer {
  /**
   * What produces the summaries (e.g. `openai-compatible:qwen-plus@panel-summary/1.0.0`). Part of
   * every cache key, so a new model or prompt version never reuses old summaries.
   */
  readonly id: string;
  summarize(text: string, request?: SummarizeRequest): Promise<string>;
}

/**
 * Stores summaries by content hash (see `summaryCacheKey`). Implementations never throw on a
 * miss or on a failed write: a cache is an optimisation, never a reason for a summary to fail.
 */
export interface SummaryCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, summary: string): Promise<void>;
}
