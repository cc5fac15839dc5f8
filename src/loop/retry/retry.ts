import * as z from 'zod';
import { functionOption, parseInput } from '../../util/index.js';
import { retryOptionsSchema } from '../loop-option-schemas.js';
import { classifyModelError, isRetryableModelError } from './classify-model-error.js';
import { RetryError } from './retry-error.js';

/** The arguments by name, so a problem reads `retry: options: unknown key …`. */
const retryArgsSchema = z.object({
  run: functionOption('a function ({ attempt, signal }) => Promise'),
  options: retryOptionsSchema.optional(),
});
const delayArgsSchema = z.object({ attempt: z.number().int().min(1), options: retryOptionsSchema.optional() });

/** @default 2 */
export const DEFAULT_MAX_RETRIES = 2;
/** @default 1000 */
export const DEFAULT_INITIAL_DELAY_MS = 1000;
/** @default 30000 */
export const DEFAULT_MAX_DELAY_MS = 30_000;
/** @default 2 */
export const DEFAULT_FACTOR = 2;
/** Bounded jitter: the delay is scaled by 1 ± jitter/2. @default 0.25 */
export const DEFAULT_JITTER = 0.25;

/** How `retry` waits and decides; every field has a DEFAULT_* constant. */
export interface RetryOptions {
  /** Retries after the first try. @default DEFAULT_MAX_RETRIES */
  maxRetries?: number;
  /** @default DEFAULT_INITIAL_DELAY_MS */
  initialDelayMs?: number;
  /** @default DEFAULT_MAX_DELAY_MS */
  maxDelayMs?: number;
  /** @default DEFAULT_FACTOR */
  factor?: number;
  /** @default DEFAULT_JITTER */
  jitter?: number;
  /** @default isRetryableModelError */
  shouldRetry?: (error: unknown, attempt: number) => boolean;
  /** A server's wait hint, which wins over the computed delay. @default the Retry-After header */
  delayHintMs?: (error: unknown) => number | undefined;
  onRetry?: (info: { attempt: number; error: unknown; delayMs: number }) => void;
  signal?: AbortSignal;
  /** @default a timer that listens to `signal` */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** @default Math.random */
  random?: () => number;
}

/**
 * The delay before retry `attempt` (1-based): exponential, capped, with bounded jitter. Pure.
 * @throws BatonError('CONFIG_INVALID') for an attempt below 1 or an unknown or bad option.
 */
export function computeDelayMs(attempt: number, options: RetryOptions = {}): number {
  const checked = parseInput(delayArgsSchema, { attempt, options }, { what: 'computeDelayMs' });
  return delayMs(attempt, checked.options ?? {});
}

function delayMs(attempt: number, options: RetryOptions): number {
  const initial = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  const capped = Math.min(initial * (options.factor ?? DEFAULT_FACTOR) ** (attempt - 1), options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  const jitter = options.jitter ?? DEFAULT_JITTER;
  return Math.round(capped * (1 - jitter / 2 + (options.random ?? Math.random)() * jitter));
}

/**
 * Runs `run` and retries it on retryable errors with exponential backoff. `run` gets the attempt
 * number (0 for the first try) so the caller can shrink its context per retry; the shrinking is
 * the caller's. Never retries an abort. A non-retryable first-try error is rethrown unchanged.
 *
 * @throws RetryError with `reason`, `errors` and `lastError` when retries run out or stop;
 *   BatonError('CONFIG_INVALID') for an unknown or bad option, before anything runs.
 * @example
 * await retry(({ attempt }) => callModel(manager.assemble(ladder[attempt])), { maxRetries: 2 });
 */
export async function retry<T>(
  run: (info: { attempt: number; signal?: AbortSignal }) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const checked = parseInput(retryArgsSchema, { run, options }, { what: 'retry' });
  return runRetries(run, checked.options ?? {});
}

/** `retry` with options already checked (the loop's own callers). */
export async function runRetries<T>(
  run: (info: { attempt: number; signal?: AbortSignal }) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const shouldRetry = options.shouldRetry ?? isRetryableModelError;
  const hint = options.delayHintMs ?? ((error: unknown) => classifyModelError(error).retryAfterMs);
  const sleep = options.sleep ?? sleepWithSignal;
  const errors: unknown[] = [];
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await run({ attempt, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      if (options.signal?.aborted || classifyModelError(error).kind === 'aborted') {
        if (attempt === 0) throw error;
        throw new RetryError('abort', [...errors, error], `Aborted after ${attempt + 1} attempts.`);
      }
      errors.push(error);
      if (!shouldRetry(error, attempt)) {
        if (attempt === 0) throw error;
        throw new RetryError('errorNotRetryable', errors, `Failed with a non-retryable error after ${attempt + 1} attempts.`);
      }
      if (attempt >= maxRetries) {
        throw new RetryError('maxRetriesExceeded', errors, `Failed after ${attempt + 1} attempts.`);
      }
      const wait = hint(error) ?? delayMs(attempt + 1, options);
      options.onRetry?.({ attempt: attempt + 1, error, delayMs: wait });
      await sleep(wait, options.signal);
    }
  }
}

function sleepWithSignal(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
