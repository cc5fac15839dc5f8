import { isSecretName, redactionMarker, redactValueSync } from '../redact/index.js';

/**
 * What an input error may show of a value it found. An error is printed (stdout, CI logs), so it
 * never echoes what can hold a secret: an environment, HTTP headers, a value under a secret-like
 * key (`apiKey`, `token`, `AWS_SECRET_ACCESS_KEY`), or a string the redactor flags. Harmless values
 * that help (a number out of range, a misspelled enum) are shown as found.
 */

/** Fields whose whole value is masked: every entry may be a secret. */
const SECRET_HOLDERS: ReadonlySet<string> = new Set(['env', 'headers']);
/** Whole key names that hold a secret on their own (`key`, `auth`), beside isSecretName's. */
const SECRET_KEYS = /^(?:key|token|secret|password|auth|authorization|cookie)$/i;

/** `env`, `headers` or `secret` for a path that can hold a secret; undefined for others. */
function secretKind(path: readonly PropertyKey[]): string | undefined {
  for (const key of path) {
    if (typeof key !== 'string') continue;
    if (SECRET_HOLDERS.has(key)) return key;
    if (SECRET_KEYS.test(key) || isSecretName(key)) return 'secret';
  }
  return undefined;
}

/**
 * The value an error may carry: under a secret path, a marker naming its type; elsewhere the value
 * with every env/headers/secret-keyed entry masked and every flagged string masked.
 */
export function safeValue(value: unknown, path: readonly PropertyKey[]): unknown {
  const kind = secretKind(path);
  if (kind !== undefined && !isHarmless(value)) return redactionMarker(kind);
  return redactValueSync(maskHolders(value)).value;
}

/** Numbers, booleans, null and undefined tell nothing secret; they help the reader most. */
function isHarmless(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean';
}

function maskHolders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskHolders);
  if (typeof value !== 'object' || value === null) return value;
  // A Date, a Map, a class with nothing enumerable: kept as found (it shows as itself).
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.keys(value).length === 0) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const kind = secretKind([key]);
      return [key, kind !== undefined && !isHarmless(item) ? redactionMarker(kind) : maskHolders(item)];
    }),
  );
}

/** `a string`, `a number`, `an array`, `null`: what a message says it received. */
export function receivedType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return value === undefined ? 'undefined' : `a ${typeof value}`;
}
