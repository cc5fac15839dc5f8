/** Words that mark a line of tool output as an error report. */
export const ERROR_LINE = /error|exception|traceback|failed|failure|not found|cannot find symbol|fatal|panic|denied/i;

/** Collapses runs of whitespace so lines compare across terminals and wrappers. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The output's lines that report an error, normalized, in order. Pure. */
export function findErrorLines(output: string): string[] {
  const found: string[] = [];
  for (const line of output.split('\n')) {
    if (!ERROR_LINE.test(line)) continue;
    const normalized = normalizeWhitespace(line);
    if (normalized.length > 0) found.push(normalized);
  }
  return found;
}
