import { o200kLibrary, o200kTable, PINNED_GPT_TOKENIZER } from './o200k-encoding.js';
import type { O200kTable } from './o200k-table.js';

/**
 * The parts of gpt-tokenizer's BPE core the fast path reuses when the bundled table is absent
 * (its vocabulary map and its cached byte-pair merge), so both paths give the same ids from the
 * same tables. They are private fields of `GptEncoding`, so this is a pinned contract, not public
 * API: package.json pins gpt-tokenizer to the exact version checked here (PINNED_GPT_TOKENIZER),
 * and test/tokens/fast-o200k.test.ts fails with o200kScannerContract()'s message when an upgrade
 * moves them. At run time a gpt-tokenizer without them leaves every text on the library path:
 * the same counts, about half as fast on the ASCII text Baton counts (measured: 15 vs 31 ms per
 * 0.5 MB of source text split in 300-character pieces; 5.5 vs 8.4 ms for a detailed refresh render).
 */
interface BpeCore {
  bytePairStringRankEncoder: Map<string, number>;
  bytePairEncode(piece: string): number[];
}

export { PINNED_GPT_TOKENIZER };

/** How the scanner looks a piece up and merges one that is not a token. */
export interface O200kVocabulary {
  rank(text: string, start: number, end: number): number | undefined;
  merge(piece: string): readonly number[];
}

function libraryCore(): Partial<BpeCore> | undefined {
  return (o200kLibrary() as unknown as { bytePairEncodingCoreProcessor?: Partial<BpeCore> }).bytePairEncodingCoreProcessor;
}

export function coreVocabulary(): O200kVocabulary | undefined {
  const core = libraryCore();
  const map = core?.bytePairStringRankEncoder instanceof Map ? core.bytePairStringRankEncoder : undefined;
  const merge = typeof core?.bytePairEncode === 'function' ? core.bytePairEncode.bind(core) : undefined;
  return map && merge ? { rank: (text, start, end) => map.get(text.slice(start, end)), merge } : undefined;
}

/** @default 10000: merged pieces remembered (identifiers and paths recur); the cache is emptied when full. */
const MERGE_CACHE_SIZE = 10_000;

/**
 * With the bundled table: lookups there, and the merge of pure-ASCII pieces too (each byte is a
 * character); a piece with wider characters merges by bytes, in the library (built on first use).
 */
export function tableVocabulary(table: O200kTable): O200kVocabulary {
  const merged = new Map<string, readonly number[]>();
  return {
    rank: (text, start, end) => table.rank(text, start, end),
    merge: (piece) => {
      let ids = merged.get(piece);
      if (ids === undefined) {
        ids = isAscii(piece) ? table.mergeAscii(piece) : o200kLibrary().encode(piece);
        if (merged.size >= MERGE_CACHE_SIZE) merged.clear();
        merged.set(piece, ids);
      }
      return ids;
    },
  };
}

const vocabulary: O200kVocabulary | undefined = o200kTable ? tableVocabulary(o200kTable) : coreVocabulary();
/** False when this gpt-tokenizer lacks the parts above: every text then takes the (slower) library path. */
export const O200K_SCANNER_ACTIVE = vocabulary !== undefined;

/**
 * Checks the pinned contract: undefined when the library's parts the fast path reuses are there,
 * else a message naming the package, the missing private parts and what to do.
 */
export function o200kScannerContract(): string | undefined {
  const core = libraryCore();
  const missing = [
    ...(core ? [] : ['o200k.bytePairEncodingCoreProcessor']),
    ...(core?.bytePairStringRankEncoder instanceof Map ? [] : ['bytePairEncodingCoreProcessor.bytePairStringRankEncoder (a Map)']),
    ...(typeof core?.bytePairEncode === 'function' ? [] : ['bytePairEncodingCoreProcessor.bytePairEncode()']),
  ];
  if (missing.length === 0) return undefined;
  return `gpt-tokenizer no longer has ${missing.join(', ')} (the fast path was checked against ${PINNED_GPT_TOKENIZER}): counts stay exact through the library but about twice as slow. Pin gpt-tokenizer back to ${PINNED_GPT_TOKENIZER}, or update src/tokens/fast-o200k.ts to the new internals, or remove the fast path.`;
}

/** o200k_base ids back to text: the table's text tokens, else the library. */
export function decodeO200k(ids: readonly number[]): string {
  return o200kTable?.decode(ids) ?? o200kLibrary().decode(ids);
}

// Character classes of the o200k_base split regex, for ASCII.
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const SPACE = 4; // \s other than line breaks
const BREAK = 5; // \r \n
const OTHER = 6; // neither letter, digit nor whitespace
const CLASS = new Uint8Array(128).fill(OTHER);
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
for (const c of [9, 11, 12, 32]) CLASS[c] = SPACE;
CLASS[10] = BREAK;
CLASS[13] = BREAK;

/**
 * Typographic punctuation Baton itself writes (… in cut text and short paths) or that is common
 * in agent output: each is punctuation or a symbol to the split regex (not a letter, digit, mark
 * or space), so it takes the scanner path like ASCII punctuation.
 */
const WIDE_OTHER = new Set([0x2026, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2192]);

const APOSTROPHE = 39;
const SLASH = 47;

/**
 * o200k_base token ids of `text`, identical to gpt-tokenizer's `encode`. ASCII text (almost all
 * of what Baton counts: errors, paths, logs, code; see WIDE_OTHER) is split by a hand-written
 * scanner that follows the o200k_base regex alternative by alternative, without the regex
 * engine's match objects; other text, and text holding a special-token marker (which `encode`
 * refuses), takes the library path.
 */
export function encodeO200k(text: string): number[] {
  return scanEncode(vocabulary, text);
}

/** encodeO200k with a given vocabulary (tests run both kinds on the same texts). */
export function scanEncode(vocabulary: O200kVocabulary | undefined, text: string): number[] {
  if (!vocabulary || !isPlainAscii(text)) return o200kLibrary().encode(text);
  const ids: number[] = [];
  const n = text.length;
  let start = 0;
  while (start < n) {
    const end = pieceEnd(text, start, n);
    const rank = vocabulary.rank(text, start, end);
    if (rank !== undefined) ids.push(rank);
    else {
      const merged = vocabulary.merge(text.slice(start, end));
      for (let k = 0; k < merged.length; k++) ids.push(merged[k] as number);
    }
    start = end;
  }
  return ids;
}

/** Number of o200k_base tokens in `text`; see encodeO200k. */
export function countO200k(text: string): number {
  return scanCount(vocabulary, text);
}

/** countO200k with a given vocabulary. */
export function scanCount(vocabulary: O200kVocabulary | undefined, text: string): number {
  if (!vocabulary || !isPlainAscii(text)) return o200kLibrary().countTokens(text);
  const n = text.length;
  let count = 0;
  let start = 0;
  while (start < n) {
    const end = pieceEnd(text, start, n);
    count += vocabulary.rank(text, start, end) !== undefined ? 1 : vocabulary.merge(text.slice(start, end)).length;
    start = end;
  }
  return count;
}

/** Every character below 0x80. */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** ASCII (and WIDE_OTHER) with no `<|`, the start of every special-token marker. */
function isPlainAscii(text: string): boolean {
  let previous = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c > 0x7f && !WIDE_OTHER.has(c)) || (c === 124 && previous === 60)) return false;
    previous = c;
  }
  return true;
}

function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? (CLASS[c] as number) : OTHER;
}

/**
 * End of the piece starting at `i`, by the o200k_base split regex restricted to ASCII:
 * 1. `[^\r\n\p{L}\p{N}]?[\p{Lu}…]*[\p{Ll}…]+('s|'t|…)?` and 2. `[^\r\n\p{L}\p{N}]?[\p{Lu}…]+[\p{Ll}…]*('s|…)?`
 * (one optional leading non-letter, then a word); 3. `\p{N}{1,3}`; 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*`;
 * 5. `\s*[\r\n]+`; 6. `\s+(?!\S)`; 7. `\s+`.
 */
function pieceEnd(text: string, i: number, n: number): number {
  const c = classAt(text, i);
  // 1-2: a word, with at most one leading character that is not a letter, digit or line break.
  let w = i;
  if (c === SPACE || c === OTHER) w = i + 1 < n && classAt(text, i + 1) <= LOWER ? i + 1 : -1;
  else if (c !== UPPER && c !== LOWER) w = -1;
  if (w >= 0) {
    let k = w;
    while (k < n && classAt(text, k) === UPPER) k++;
    let m = k;
    while (m < n && classAt(text, m) === LOWER) m++;
    return contraction(text, m, n);
  }
  // 3: up to three digits.
  if (c === DIGIT) {
    let k = i + 1;
    while (k < n && k < i + 3 && classAt(text, k) === DIGIT) k++;
    return k;
  }
  // 4: a punctuation run, with at most one leading space, and the line breaks or slashes after it.
  const p = text.charCodeAt(i) === 32 && i + 1 < n && classAt(text, i + 1) === OTHER ? i + 1 : i;
  if (classAt(text, p) === OTHER) {
    let k = p + 1;
    while (k < n && classAt(text, k) === OTHER) k++;
    while (k < n && (classAt(text, k) === BREAK || text.charCodeAt(k) === SLASH)) k++;
    return k;
  }
  // 5-7: whitespace.
  let k = i;
  let lastBreak = -1;
  while (k < n) {
    const ck = classAt(text, k);
    if (ck === BREAK) lastBreak = k;
    else if (ck !== SPACE) break;
    k++;
  }
  if (lastBreak >= 0) return lastBreak + 1;
  if (k === n || k - i === 1) return k;
  return k - 1;
}

/** The optional `'s|'d|'m|'t|'ll|'ve|'re` (any case) after a word ending at `m`. */
function contraction(text: string, m: number, n: number): number {
  if (m + 1 >= n || text.charCodeAt(m) !== APOSTROPHE) return m;
  const a = text.charCodeAt(m + 1) | 0x20;
  if (a === 115 || a === 100 || a === 109 || a === 116) return m + 2; // s d m t
  if (m + 2 >= n) return m;
  const b = text.charCodeAt(m + 2) | 0x20;
  if ((a === 108 && b === 108) || (a === 118 && b === 101) || (a === 114 && b === 101)) return m + 3; // ll ve re
  return m;
}
