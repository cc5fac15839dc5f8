import { o200kCounter, type TokenCounter } from '../tokens/index.js';

/** Seed 003: "Summary generation should target 20-30% of original length". @default 0.25 */
export const DEFAULT_SUMMARY_RATIO = 0.25;
/** Below this a summary stops carrying the topics covered. @default 24 */
export const DEFAULT_MIN_SUMMARY_TOKENS = 24;

/** The token length a summary of `text` should aim for: 25% of it, never under 24 tokens. */
export function summaryTargetTokens(text: string, options: { ratio?: number; minTokens?: number; counter?: TokenCounter } = {}): number {
  const counter = options.counter ?? o200kCounter;
  const ratio = options.ratio ?? DEFAULT_SUMMARY_RATIO;
  const minTokens = options.minTokens ?? DEFAULT_MIN_SUMMARY_TOKENS;
  return Math.max(minTokens, Math.ceil(counter.count(text) * ratio));
}
