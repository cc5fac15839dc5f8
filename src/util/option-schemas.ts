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

/**
 * An environment: process.env, or a plain object of strings. zod's `record` rejects process.env
 * (its prototype is not Object.prototype), so every real process failed the check.
 */
export const envOption: z.ZodType<NodeJS.ProcessEnv> = z.custom<NodeJS.ProcessEnv>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => entry === undefined || typeof entry === 'string'),
  { message: 'expected an environment: an object of strings (process.env)' },
);
