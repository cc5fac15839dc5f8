import { o200kCounter, type TokenCounter } from '../tokens/index.js';

/** Seed 003: "Summary generation should target 20-30% of original length". @default 0.25 */
export const DEFAULT_SUMMARY_RATIO = 0.25;
/** Below this a summary stops carrying the topics covered. @default 24 */
export const DEFAULT_MIN_SUMMARY_TOKENS = 24;

/** The token length a summary of `text` should aim for: 25% of it, never under 24 tokens. */
export function summaryTargetTokens(text: string, counter: TokenCounter = o200kCounter): number {
  return Math.max(DEFAULT_MIN_SUMMARY_TOKENS, Math.ceil(counter.count(text) * DEFAULT_SUMMARY_RATIO));
}
