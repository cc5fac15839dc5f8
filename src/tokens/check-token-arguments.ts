import { BatonError } from '../errors/index.js';

/**
 * The public token functions' checks: plain `typeof` tests, not a schema, since they run on every
 * count. A failure is a BatonError('INPUT_INVALID') naming the function, the argument, what it
 * expects and the type received; never the value of a text (it may hold a secret).
 */
export function checkText(fn: string, text: unknown): void {
  if (typeof text !== 'string') throw invalid(fn, 'text', 'a string', typeName(text));
}

/** A token count: any number from 0 up (Infinity keeps everything); NaN, negatives and non-numbers are refused. */
export function checkMaxTokens(fn: string, maxTokens: unknown): void {
  if (typeof maxTokens !== 'number' || !(maxTokens >= 0)) {
    const received = typeof maxTokens === 'number' ? String(maxTokens) : typeName(maxTokens);
    throw invalid(fn, 'maxTokens', 'a number of tokens, 0 or more', received);
  }
}

/** Which end to keep: 'head', 'tail' or left out. */
export function checkKeep(fn: string, keep: unknown): void {
  if (keep !== undefined && keep !== 'head' && keep !== 'tail') {
    const received = typeof keep === 'string' && keep.length <= 20 ? JSON.stringify(keep) : typeName(keep);
    throw invalid(fn, 'keep', '"head" or "tail"', received);
  }
}

function invalid(fn: string, field: string, expected: string, received: string): BatonError {
  return new BatonError('INPUT_INVALID', `${fn}: ${field} must be ${expected}; got ${received}`, {
    details: { field, expected, received },
  });
}

/** `null`, `undefined`, `an array`, `a number`, `an object`, …: the kind of a value, not the value. */
function typeName(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
