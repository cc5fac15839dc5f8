import { countO200k, encodeO200k } from './encode-o200k.js';
import { headOfTokens, tailOfTokens } from './token-ids.js';

/** Counts tokens in a text. Passed into packers so tests and callers can choose the tokenizer. */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

/** The tokenizer every Baton budget is measured with: o200k_base, offline. */
export const o200kCounter: TokenCounter = {
  name: 'o200k_base',
  count: (text) => (text.length === 0 ? 0 : countO200k(text)),
};

/** Counts tokens with o200k_base. */
export function countTokens(text: string): number {
  return o200kCounter.count(text);
}

/**
 * Cuts text to at most `maxTokens` tokens, keeping the head (`from: 'head'`) or the tail.
 * Exact: the result re-counts to <= maxTokens.
 */
export function truncateToTokens(text: string, maxTokens: number, keep: 'head' | 'tail' = 'head'): string {
  if (maxTokens <= 0) return '';
  const ids = encodeO200k(text);
  if (ids.length <= maxTokens) return text;
  let out = keep === 'head' ? headOfTokens(text, ids, maxTokens) : tailOfTokens(text, ids, maxTokens);
  // Re-tokenizing a cut can merge differently; shave until the count holds.
  while (out.length > 0 && countTokens(out) > maxTokens) {
    out = keep === 'head' ? out.slice(0, -1) : out.slice(1);
  }
  return out;
}
