/** A tool result longer than this keeps its head and tail (the benchmark needs real outputs). */
export const DEFAULT_MAX_OUTPUT_CHARS = 48_000;
/** A prompt or reply longer than this keeps its head and tail. */
export const DEFAULT_MAX_TEXT_CHARS = 32_000;

/**
 * Cuts a text longer than `max` characters to its head (two thirds) and tail (one third), with a
 * line saying how much was cut between them. Pure.
 */
export function clipText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const head = Math.floor((max * 2) / 3);
  const tail = max - head;
  const cut = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n… [${cut} characters cut] …\n${text.slice(text.length - tail)}`, truncated: true };
}
