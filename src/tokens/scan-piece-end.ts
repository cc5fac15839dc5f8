/**
 * The o200k_base split (o200k-split.ts) by hand, for text of ASCII and the typographic
 * punctuation below: almost all of what Baton counts (errors, paths, logs, code). It follows the
 * regex alternative by alternative, without the regex engine's match objects, and without its
 * compilation: V8 compiles the Unicode classes of O200K_SPLIT on first use (20-50 ms here), which
 * a fresh `baton refresh` or hook call would otherwise pay for its first count. Same pieces as the
 * regex (tested on every text file of this repository and 20,000 random strings).
 */

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
 * or space), so it is scanned like ASCII punctuation.
 */
const WIDE_OTHER = new Set([0x2026, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2192]);

const APOSTROPHE = 39;
const SLASH = 47;

/** True when every character of `text` is ASCII or WIDE_OTHER: scanPieceEnd splits it. */
export function isScannable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f && !WIDE_OTHER.has(c)) return false;
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
export function scanPieceEnd(text: string, i: number, n: number): number {
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
