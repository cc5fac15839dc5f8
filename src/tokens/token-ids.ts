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
  if (count <= 0) return '';
  if (count >= ids.length) return text;
  if (!isAscii(text)) return headByCharacters(text, ids.length, count);
  return decodeO200k(ids.slice(0, count));
}

/** The suffix counterpart of headOfTokens: at most the last `count` tokens, never decoded mid-character. */
export function tailOfTokens(text: string, ids: readonly number[], count: number): string {
  if (count <= 0) return '';
  if (count >= ids.length) return text;
  if (!isAscii(text)) return tailByCharacters(text, ids.length, count);
  return decodeO200k(ids.slice(ids.length - count));
}

function tailByCharacters(text: string, tokens: number, count: number): string {
  let chars = Math.floor((text.length * count) / tokens);
  for (;;) {
    // Never start inside a surrogate pair.
    const code = text.charCodeAt(text.length - chars);
    if (chars > 0 && code >= 0xdc00 && code <= 0xdfff) chars -= 1;
    if (chars <= 0) return '';
    const tail = text.slice(text.length - chars);
    const n = countTokens(tail);
    if (n <= count) return tail;
    chars = Math.min(chars - 1, Math.floor((chars * count) / n));
  }
}

function headByCharacters(text: string, tokens: number, count: number): string {
  let chars = Math.floor((text.length * count) / tokens);
  for (;;) {
    // Never split a surrogate pair.
    const code = text.charCodeAt(chars - 1);
    if (chars > 0 && code >= 0xd800 && code <= 0xdbff) chars -= 1;
    if (chars <= 0) return '';
    const head = text.slice(0, chars);
    const n = countTokens(head);
    if (n <= count) return head;
    chars = Math.min(chars - 1, Math.floor((chars * count) / n));
  }
}

/** Every character below 0x80 (one byte, one token boundary candidate per character). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
