import { maskSecretsSync } from '../redact/index.js';

/** maskSecretsSync's text, for every text a reader keeps. */
export function maskText(text: string): string {
  return maskSecretsSync(text).text;
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
