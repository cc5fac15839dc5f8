/**
 * Why a text is not valid JSON, and where (`Unexpected token at line 3, column 7`), without a word
 * of its content: V8's own message quotes the text (`Unexpected token 'O', "OPENAI_API"... is not
 * valid JSON`), and a config file can hold a key. Used by every loader of a user's JSON file.
 */
export function describeJsonError(text: string, error: unknown): string {
  const reason = reasonOf(error instanceof Error ? error.message : String(error));
  const offset = firstBadOffset(text);
  if (offset >= text.length) return `${reason} (the text ends too early)`;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${reason} at line ${line}, column ${column}`;
}

/** V8's reason, the quoted text, token and position left out. */
function reasonOf(message: string): string {
  const reason = message
    .replace(/,\s*(?:\.\.\.)?".*$/s, '')
    .replace(/^Unexpected token '.*?'/, 'Unexpected token')
    .replace(/\s+in JSON at position.*$/s, '')
    .replace(/\s+at position.*$/s, '')
    .replace(/\s+is not valid JSON.*$/s, '')
    .trim();
  return reason || 'Unexpected token';
}

/**
 * The offset of the first character that makes the text invalid: the longest prefix that is valid
 * or merely incomplete JSON (a prefix of a valid text never fails before its end). Binary search,
 * so a large file costs a few parses.
 */
function firstBadOffset(text: string): number {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (isValidPrefix(text.slice(0, mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

function isValidPrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    if (/end of JSON input/i.test(message)) return true;
    const position = /at position (\d+)/.exec(message);
    return position !== null && Number(position[1]) >= prefix.trimEnd().length;
  }
}
