// The optional English contraction after a word, any case (JavaScript has no inline (?i:...)).
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
const UPPER = String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`;
const LOWER = String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`;

/**
 * The pre-tokenizer of o200k_base, as tiktoken publishes it: text is cut into pieces (a word with
 * at most one leading non-letter and its contraction; up to three digits; a punctuation run with
 * at most one leading space and the line breaks or slashes after it; whitespace), and each piece
 * is encoded on its own. Global and sticky: callers set `lastIndex` and call `exec`.
 */
export const O200K_SPLIT = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?${UPPER}*${LOWER}+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?${UPPER}+${LOWER}*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join('|'),
  'guy',
);
