import { maskSecretsSync } from '../redact/index.js';
import { clipText } from './clip-text.js';

/** maskSecretsSync's text, for every text a reader keeps. */
export function maskText(text: string): string {
  return maskSecretsSync(text).text;
}

/**
 * Characters masked beyond each cut of a clipped text: a secret shorter than this that crosses a
 * cut is seen whole by the rules (a PEM key, the longest, is about 3.3 KB).
 */
export const MASK_MARGIN_CHARS = 16_384;

/**
 * clipText of the masked text, masking only what is kept: a text longer than `max` has its head
 * and tail masked, each with MASK_MARGIN_CHARS more beyond its cut, then cut (a whole 5 MB output
 * is never masked only to be cut to 48 KB). Equal to `clipText(maskText(text), max)` for every
 * secret shorter than the margin; a marker the cut crosses stays cut, never a secret.
 */
export function maskClipped(text: string, max: number): { text: string; truncated: boolean; masked?: string } {
  if (text.length <= max + 2 * MASK_MARGIN_CHARS) {
    const masked = maskText(text);
    return { ...clipText(masked, max), masked };
  }
  const headChars = Math.floor((max * 2) / 3);
  const tailChars = max - headChars;
  const head = maskText(text.slice(0, headChars + MASK_MARGIN_CHARS)).slice(0, headChars);
  const tailWindow = maskText(text.slice(text.length - tailChars - MASK_MARGIN_CHARS));
  const tail = tailWindow.slice(tailWindow.length - tailChars);
  const cut = text.length - headChars - tailChars;
  return { text: `${head}\n… [${cut} characters cut] …\n${tail}`, truncated: true };
}

/**
 * Masks every string inside a JSON value (tool arguments as a client recorded them) with the one
 * redactor's synchronous rules. Returns a new value for objects and arrays; keys are left alone.
 */
export function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return maskText(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    // defineProperty: a recorded `__proto__` key stays a plain key, never the copy's prototype.
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, { value: maskValue(item), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
  return value;
}
