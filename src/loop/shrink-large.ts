import { shrinkText } from '../budget/index.js';
import type { TokenCounter } from '../tokens/index.js';

/** Characters kept per allowed token before the exact cut; well above real text's chars per token. */
const CHARS_PER_TOKEN_BOUND = 6;

/**
 * `shrinkText` for texts many times over their cap: cuts by characters first (head, or head and
 * tail) so the exact token cut works on a few times the allowance instead of the whole text, and
 * passes the full count so the omission marker still reports what was left out (the cut is not
 * counted again). Pure.
 */
export function shrinkLarge(
  text: string,
  maxTokens: number,
  mode: 'head-tail' | 'trim-tail',
  counter: TokenCounter,
  tokens: number,
): string {
  if (tokens <= maxTokens) return text;
  const keep = Math.max(64, maxTokens) * CHARS_PER_TOKEN_BOUND;
  let cut = text;
  if (text.length > keep * 2) cut = mode === 'trim-tail' ? text.slice(0, keep) : `${text.slice(0, keep)}\n${text.slice(-keep)}`;
  // The whole is over the cap, so the cut is shrunk too: the whole's count stands for the cut's
  // (the marker reports what the whole loses) and the cut is not counted again.
  return shrinkText(cut, maxTokens, mode, counter, tokens);
}
