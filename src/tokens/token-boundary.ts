/**
 * o200k_base splits text into pieces with a regex before BPE, and a piece can reach across a line
 * break only through a whitespace run (`\s*[\r\n]+`) or the `[\r\n/]*` tail of a punctuation run;
 * nothing in the regex looks behind. So when the text after a '\n' starts with a character that is
 * neither whitespace nor '/', a new piece starts there and the two sides tokenize independently.
 */
const PIECE_START = /^[^\s/]/;

/**
 * True when `text`, placed right after a line break, starts a new o200k_base piece, so that
 * `countTokens(head + '\n' + text) === countTokens(head + '\n') + countTokens(text)` for any `head`.
 * Lets callers count a block line by line (and cache the counts) yet stay exact.
 *
 * @example
 * startsTokenPiece('- error text') // true
 * startsTokenPiece('  indented')   // false: the indentation joins the line break's piece
 */
export function startsTokenPiece(text: string): boolean {
  return PIECE_START.test(text);
}
