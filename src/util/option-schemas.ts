import * as z from 'zod';

/**
 * Zod schemas for the parts of an options object that are not data: objects known by their
 * methods (a ledger, a provider, a logger), functions and abort signals. Each failure names what
 * was expected, so `runPlan(plan, { ledger: 'sqlite:x.db' })` says "expected a Ledger (from
 * openLedger or new MemoryLedger())" rather than a type dump.
 */

/** An object with each of `methods` as a function; `expected` is the message's noun phrase. */
export function objectWithMethods<T>(methods: readonly string[], expected: string): z.ZodType<T> {
  return z.custom<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((name) => typeof (value as Record<string, unknown>)[name] === 'function'),
    { message: `expected ${expected}` },
  );
}

/** A function (callbacks, `now`, `sleep`). */
export function functionOption<T extends (...args: never[]) => unknown>(expected = 'a function'): z.ZodType<T> {
  return z.custom<T>((value) => typeof value === 'function', { message: `expected ${expected}` });
}

/** An AbortSignal (from an AbortController, or AbortSignal.timeout()). */
export const abortSignalOption: z.ZodType<AbortSignal> = z.custom<AbortSignal>((value) => value instanceof AbortSignal, {
  message: 'expected an AbortSignal (new AbortController().signal)',
});

/** Any object that is not an array, whatever its prototype (process.env, a class instance). */
function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An environment: process.env, or a plain object of strings. zod's `record` rejects process.env
 * (its prototype is not Object.prototype), so every real process failed the check. Every option
 * and config field that takes an environment uses this one schema.
 */
export const envOption: z.ZodType<NodeJS.ProcessEnv> = z.custom<NodeJS.ProcessEnv>(
  (value) => isObjectLike(value) && Object.values(value).every((entry) => entry === undefined || typeof entry === 'string'),
  { message: 'expected an environment: an object of strings (process.env)' },
);

/**
 * An object of strings (HTTP headers) whatever its prototype: zod's `record` refuses any object
 * whose prototype is not Object.prototype, so a headers object built by a class failed.
 */
export function stringMapOption(expected = 'an object of strings'): z.ZodType<Record<string, string>> {
  return z.custom<Record<string, string>>(
    (value) => isObjectLike(value) && Object.values(value).every((entry) => typeof entry === 'string'),
    { message: `expected ${expected}` },
  );
}
