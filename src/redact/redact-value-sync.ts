import { maskSecretsSync } from './mask-secrets-sync.js';
import { isSecretName, isSecretValue } from './secret-name.js';
import { redactionMarker } from './secret-patterns.js';
import type { RedactValueResult } from './types.js';

/**
 * Masks every string inside a JSON-like value (objects, arrays, strings; keys are left alone)
 * with maskSecretsSync. A key is the context of its value, as a name is in `NAME=value`: a
 * string under a secret-like key (`password`, `AWS_SECRET_ACCESS_KEY`, `apiKey`) is masked whole,
 * unless it is a placeholder or a reference (`$TOKEN`). Returns a new value; the input is not
 * changed. Keys are copied as own data properties, so a `__proto__` key stays a key and never
 * becomes the copy's prototype.
 */
export function redactValueSync<T>(value: T): RedactValueResult<T> {
  const counter = { count: 0 };
  const rebuilt = rebuild(value, undefined, counter) as T;
  return { value: rebuilt, count: counter.count };
}

function rebuild(value: unknown, key: string | undefined, counter: { count: number }): unknown {
  if (typeof value === 'string') return maskString(value, key, counter);
  if (Array.isArray(value)) return value.map((item) => rebuild(item, key, counter));
  if (isPlainObject(value)) {
    // Object.fromEntries defines own properties: `__proto__` stays an ordinary key.
    return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, rebuild(item, k, counter)]));
  }
  return value;
}

function maskString(text: string, key: string | undefined, counter: { count: number }): string {
  const masked = maskSecretsSync(text);
  if (key !== undefined && text.length >= 6 && isSecretName(key) && isSecretValue(text.trim()) && !WHOLE_MARKER.test(masked.text)) {
    counter.count += 1;
    // Read as `KEY=value`, the value may be a kind of its own (an AWS secret key); else it is one.
    const probe = maskSecretsSync(`${key}=${text}`).text.slice(key.length + 1);
    return WHOLE_MARKER.test(probe) ? probe : redactionMarker('assignment');
  }
  counter.count += masked.count;
  return masked.text;
}

const WHOLE_MARKER = /^\[REDACTED:[a-z0-9-]+\]$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
