import { bytePairMerge } from './byte-pair-merge.js';
import { O200K_SPLIT } from './o200k-split.js';
import { isScannable, scanPieceEnd } from './scan-piece-end.js';
import { o200kTable } from './o200k-vocabulary.js';

/** @default 10000: merged pieces remembered (identifiers and paths recur); the cache is emptied when full. */
const MERGE_CACHE_SIZE = 10_000;
const merged = new Map<string, readonly number[]>();
/** @default 256: longer pieces are not cached by text (10,000 of them could hold megabytes). */
const CACHED_PIECE_CHARS = 256;
/** The last long piece merged, and its parts. */
let lastLong: { piece: string; parts: readonly number[] } = { piece: '', parts: [] };
/**
 * @default 16384: a piece is merged whole (exactly as tiktoken does) up to this many characters,
 * and in chunks of it beyond (a chunk boundary may then cost a token more than the whole piece
 * would). Real text has no piece this long; runs of one character are split on a multiple of
 * their tokens' length, and count the same.
 */
export const MAX_MERGE_CHARS = 16_384;
/** The longest o200k_base token, in bytes (128 spaces): a longer piece is never one token. */
const LONGEST_TOKEN_BYTES = 128;
/** No token spans more characters than it has bytes. */
export const LONGEST_TOKEN_CHARS = LONGEST_TOKEN_BYTES;
const utf8 = new TextEncoder();
const text8 = new TextDecoder();
// Loaded with the module, as the render worker expects (it loads this beside start-up), and so
// that a first count is no slower than the next ones.
const table = o200kTable();
/** The current piece's UTF-8 bytes (grown as needed; pieces are short). */
let scratch = new Uint8Array(256);

/**
 * o200k_base token ids of `text`: the split (by hand for ASCII text, scan-piece-end.ts; else the
 * regex), then each piece's id when it is one token, else its byte-pair merge. The same ids as gpt-tokenizer's `encode` (tested on every text file
 * of this repository, agent trajectories and random text), except that a special-token marker
 * such as `<|endoftext|>` is ordinary text here, as an API counts it in a prompt, where
 * gpt-tokenizer's `encode` throws on it.
 */
export function encodeO200k(text: string): number[] {
  const ids: number[] = [];
  tokenize(text, ids);
  return ids;
}

/** Number of o200k_base tokens in `text`; see encodeO200k. */
export function countO200k(text: string): number {
  return tokenize(text, undefined);
}

/**
 * The text of o200k_base token ids (as encodeO200k gives them). Decoded whole, so a cut inside a
 * multi-byte character shows as U+FFFD here and never leaks into another call. Throws on an id
 * outside the vocabulary, naming it.
 */
export function decodeO200k(ids: readonly number[]): string {
  const parts = ids.map((id) => {
    const bytes = table.bytesOf(id);
    if (!bytes) throw new Error(`${id} is not an o200k_base token id (0 to ${table.size - 1})`);
    return bytes;
  });
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return text8.decode(out);
}

/** Counts the tokens of `text`, and pushes their ids onto `ids` when given. */
function tokenize(text: string, ids: number[] | undefined): number {
  const n = text.length;
  let count = 0;
  if (isScannable(text)) {
    for (let start = 0; start < n;) {
      const end = scanPieceEnd(text, start, n);
      count += encodePiece(text, start, end, ids);
      start = end;
    }
    return count;
  }
  O200K_SPLIT.lastIndex = 0;
  for (let match = O200K_SPLIT.exec(text); match !== null; match = O200K_SPLIT.exec(text)) {
    count += encodePiece(text, match.index, match.index + match[0].length, ids);
  }
  return count;
}

/**
 * Encodes the piece `text[start, end)`. A piece longer than MAX_MERGE_CHARS is merged in chunks
 * of that many characters: one chunk's merge stays small however long the piece (a separator line
 * or a progress bar of a megabyte is one piece), and the chunks of a run of one character are the
 * same text, merged once.
 */
function encodePiece(text: string, start: number, end: number, ids: number[] | undefined): number {
  let count = 0;
  while (end - start > MAX_MERGE_CHARS) {
    let cut = start + MAX_MERGE_CHARS;
    // Never between the two halves of a surrogate pair.
    if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
    count += encodeChunk(text, start, cut, ids);
    start = cut;
  }
  return count + encodeChunk(text, start, end, ids);
}

/** Encodes `text[start, end)`: its id when it is one token, else its byte-pair merge (remembered by its text). */
function encodeChunk(text: string, start: number, end: number, ids: number[] | undefined): number {
  const length = writeUtf8(text, start, end);
  const rank = length <= LONGEST_TOKEN_BYTES ? table.rankOf(scratch, 0, length) : undefined;
  if (rank !== undefined) {
    ids?.push(rank);
    return 1;
  }
  const parts = mergedParts(text.slice(start, end), length);
  if (ids) for (let k = 0; k < parts.length; k++) ids.push(parts[k] as number);
  return parts.length;
}

/** The merge of `piece` (its UTF-8 bytes in `scratch`), from the cache when it was merged before. */
function mergedParts(piece: string, length: number): readonly number[] {
  if (piece === lastLong.piece) return lastLong.parts;
  let parts = merged.get(piece);
  if (parts !== undefined) return parts;
  parts = bytePairMerge(scratch, length, (bytes, from, to) => table.rankOf(bytes, from, to));
  // Long chunks (a run of one character) recur back to back: only the last one is kept.
  if (piece.length > CACHED_PIECE_CHARS) {
    lastLong = { piece, parts };
    return parts;
  }
  if (merged.size >= MERGE_CACHE_SIZE) merged.clear();
  merged.set(piece, parts);
  return parts;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Writes the UTF-8 bytes of `text[start, end)` to `scratch` and returns their number. ASCII (most
 * pieces) is copied by hand; the rest goes through TextEncoder, which turns a lone surrogate into
 * U+FFFD's bytes, as gpt-tokenizer's merge does.
 */
function writeUtf8(text: string, start: number, end: number): number {
  const length = end - start;
  if (scratch.length < length * 3) scratch = new Uint8Array(length * 3);
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(start + i);
    if (c > 0x7f) return utf8.encodeInto(text.slice(start, end), scratch).written;
    scratch[i] = c;
  }
  return length;
}
