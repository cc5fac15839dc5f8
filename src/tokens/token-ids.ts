import { countO200k as countTokens, decodeO200k, encodeO200k } from './encode-o200k.js';

/** o200k_base token ids of a text (a special-token marker counts as ordinary text). */
export function encodeTokens(text: string): number[] {
  return text.length === 0 ? [] : encodeO200k(text);
}

/**
 * The prefix of `text` made of at most its first `count` tokens, given `ids = encodeTokens(text)`:
 * for ASCII text the ids are sliced and decoded, with no second encoding. Other text is cut by
 * characters (estimated from the ids, corrected by exact counts of the head) and never decoded:
 * a cut among the ids can fall inside a multi-byte character, whose decoded text is not a prefix.
 * Always a prefix of `text`; re-count it when the exact count matters (a cut can re-tokenize
 * differently).
 *
 * @example
 * const text = 'hello brave new world';
 * headOfTokens(text, encodeTokens(text), 2) // 'hello brave'
 */
export function headOfTokens(text: string, ids: readonly number[], count: number): string {
  return endOfTokens(text, ids, count, 'head');
}

/**
 * headOfTokens for either end: at most the first (`head`) or the last (`tail`) `count` tokens,
 * never decoded mid-character.
 */
export function endOfTokens(text: string, ids: readonly number[], count: number, keep: TextEnd): string {
  if (count <= 0) return '';
  if (count >= ids.length) return text;
  if (isAscii(text)) return decodeO200k(keep === 'head' ? ids.slice(0, count) : ids.slice(ids.length - count));
  let chars = Math.floor((text.length * count) / ids.length);
  for (;;) {
    const part = endOf(text, chars, keep);
    if (part === '') return '';
    const n = countTokens(part);
    if (n <= count) return part;
    chars = Math.min(part.length - 1, Math.floor((part.length * count) / n));
  }
}

/** Which end of a text is kept. */
export type TextEnd = 'head' | 'tail';

/** The first (`head`) or last (`tail`) `chars` characters of `text`, one fewer where the cut would split a surrogate pair. */
export function endOf(text: string, chars: number, keep: TextEnd): string {
  if (chars <= 0) return '';
  if (keep === 'head') {
    const code = text.charCodeAt(chars - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
  }
  const code = text.charCodeAt(text.length - chars);
  return text.slice(text.length - (code >= 0xdc00 && code <= 0xdfff ? chars - 1 : chars));
}

/** Every character below 0x80 (one byte, one token boundary candidate per character). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
