import { maskSecretsSync } from './mask-secrets-sync.js';
import { redactValueSync } from './redact-value-sync.js';
import type { RedactResult, RedactValueResult } from './types.js';

/**
 * Masks secrets in a text with Baton's one rule set (the same as maskSecretsSync: the kinds of
 * secretlint's recommended preset plus Baton's own), `[REDACTED:<kind>]` once per secret.
 * Asynchronous for the callers written when it ran secretlint; it loads nothing now.
 *
 * @example
 * const { text, count } = await redactSecrets(diff);
 */
export async function redactSecrets(text: string): Promise<RedactResult> {
  return maskSecretsSync(text);
}

/**
 * Masks every string inside a JSON-like value (objects, arrays, strings; keys are left alone, and
 * a string under a secret-like key is masked whole): see redactValueSync. Returns a new value;
 * the input is not changed.
 */
export async function redactValue<T>(value: T): Promise<RedactValueResult<T>> {
  return redactValueSync(value);
}
