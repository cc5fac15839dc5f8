import { checkKeep, checkMaxTokens, checkText } from './check-token-arguments.js';
import { countO200k, encodeO200k, LONGEST_TOKEN_CHARS } from './encode-o200k.js';
import { endOf, endOfTokens, type TextEnd } from './token-ids.js';

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

/**
 * Counts tokens with o200k_base. Linear in the text's length, one long piece included (a separator
 * line or a progress bar of a megabyte counts in milliseconds).
 *
 * @throws BatonError('INPUT_INVALID') when `text` is not a string.
 * @example
 * countTokens('hello world') // 2
 */
export function countTokens(text: string): number {
  checkText('countTokens', text);
  return o200kCounter.count(text);
}

/**
 * Cuts text to at most `maxTokens` tokens, keeping the head (`keep: 'head'`, the default) or the
 * tail. Exact: the result re-counts to <= maxTokens. A fraction counts as the whole tokens in it;
 * Infinity keeps the whole text.
 *
 * @throws BatonError('INPUT_INVALID') when `text` is not a string, `maxTokens` is not a number
 *   from 0 up (NaN and negatives included), or `keep` is neither 'head' nor 'tail'.
 * @example
 * truncateToTokens('hello brave new world', 2) // 'hello brave'
 */
export function truncateToTokens(text: string, maxTokens: number, keep: TextEnd = 'head'): string {
  checkText('truncateToTokens', text);
  checkMaxTokens('truncateToTokens', maxTokens);
  checkKeep('truncateToTokens', keep);
  const limit = Math.floor(maxTokens);
  if (limit <= 0) return '';
  // No token is longer than LONGEST_TOKEN_CHARS, so `limit` tokens never reach past this window:
  // a cut of 4,000 tokens from 20 MB encodes half a megabyte, not all of it.
  const window = limit * LONGEST_TOKEN_CHARS;
  const part = text.length <= window ? text : endOf(text, window, keep);
  const ids = encodeO200k(part);
  if (part === text && ids.length <= limit) return text;
  let out = endOfTokens(part, ids, limit, keep);
  // Re-tokenizing a cut can merge differently: shave until the count holds, in proportion to the
  // excess (one character at a time re-counted a long cut once per character).
  for (let count = countO200k(out); count > limit; count = countO200k(out)) {
    const cut = Math.max(1, Math.floor((out.length * (count - limit)) / count));
    out = endOf(out, out.length - cut, keep);
  }
  return out;
}
