import { maskSecretsSync } from '../redact/index.js';

/** A tool result longer than this keeps its head and tail (the benchmark needs real outputs). */
export const DEFAULT_MAX_OUTPUT_CHARS = 48_000;
/** A prompt or reply longer than this keeps its head and tail. */
export const DEFAULT_MAX_TEXT_CHARS = 32_000;

/**
 * Characters masked beyond each cut of a clipped text: a secret shorter than this that crosses a
 * cut is seen whole by the rules (a PEM key, the longest, is about 3.3 KB).
 */
export const MASK_MARGIN_CHARS = 16_384;

/**
 * Cuts a text longer than `max` characters to its head (two thirds) and tail (one third), with a
 * line saying how much was cut between them. Pure.
 */
export function clipText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const head = Math.floor((max * 2) / 3);
  return { text: joinCut(text.slice(0, head), text.slice(text.length - (max - head)), text.length - max), truncated: true };
}

/**
 * clipText of the masked text, masking only what is kept: a text longer than `max` has its head
 * and tail masked, each with MASK_MARGIN_CHARS more beyond its cut, then cut (a whole 5 MB output
 * is never masked only to be cut to 48 KB). Equal to `clipText(maskSecretsSync(text).text, max)`
 * for every secret shorter than the margin; a marker the cut crosses stays cut, never a secret.
 */
export function maskClipped(text: string, max: number): { text: string; truncated: boolean; masked?: string } {
  if (text.length <= max + 2 * MASK_MARGIN_CHARS) {
    const masked = maskSecretsSync(text).text;
    return { ...clipText(masked, max), masked };
  }
  const headChars = Math.floor((max * 2) / 3);
  const tailChars = max - headChars;
  const head = maskSecretsSync(text.slice(0, headChars + MASK_MARGIN_CHARS)).text.slice(0, headChars);
  const tail = maskSecretsSync(text.slice(text.length - tailChars - MASK_MARGIN_CHARS)).text;
  return { text: joinCut(head, tail.slice(tail.length - tailChars), text.length - max), truncated: true };
}

function joinCut(head: string, tail: string, cut: number): string {
  return `${head}\n… [${cut} characters cut] …\n${tail}`;
}
