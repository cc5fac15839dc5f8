import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { classifyModelError, computeDelayMs, RetryError, retry } from '../../src/loop/index.js';

const httpError = (status: number, message: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(message), { statusCode: status, responseHeaders: headers });

describe('retry with backoff (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries 429 and 500 twice with exponential backoff from 1 s', async () => {
    const attempts: number[] = [];
    const run = vi.fn(async ({ attempt }: { attempt: number }) => {
      attempts.push(attempt);
      if (attempt === 0) throw httpError(429, 'RESOURCE_EXHAUSTED');
      if (attempt === 1) throw httpError(500, 'INTERNAL');
      return 'ok';
    });
    const promise = retry(run, { jitter: 0 });
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toEqual([0, 1]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(attempts).toEqual([0, 1]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(promise).resolves.toBe('ok');
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('respects Retry-After over the computed delay', async () => {
    let calls = 0;
    const promise = retry(
      async () => {
        calls += 1;
        if (calls === 1) throw httpError(429, 'rate limited', { 'retry-after': '5' });
        return calls;
      },
      { jitter: 0 },
    );
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(promise).resolves.toBe(2);
  });

  it('throws RetryError with every error after the last retry', async () => {
    const promise = retry(
      async () => {
        throw httpError(500, 'ServerError: boom');
      },
      { jitter: 0 },
    ).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3000);
    const error = (await promise) as RetryError;
    expect(error).toBeInstanceOf(RetryError);
    expect(error.reason).toBe('maxRetriesExceeded');
    expect(error.errors).toHaveLength(3);
    expect((error.lastError as Error).message).toBe('ServerError: boom');
  });

  it('rethrows a non-retryable first-try error unchanged and never retries an abort', async () => {
    const bad = httpError(400, 'bad request');
    await expect(retry(async () => Promise.reject(bad))).rejects.toBe(bad);
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    const run = vi.fn(async () => Promise.reject(abort));
    await expect(retry(run)).rejects.toBe(abort);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const promise = retry(async () => Promise.reject(httpError(429, 'slow down')), { signal: controller.signal, jitter: 0 }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('stop'));
    expect(((await promise) as Error).message).toBe('stop');
  });

  it('removes its abort listener after a completed wait', async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    let n = 0;
    const promise = retry(
      async () => {
        n += 1;
        if (n === 1) throw httpError(429, 'x');
        return n;
      },
      { signal: controller.signal, jitter: 0 },
    );
    await vi.advanceTimersByTimeAsync(1000);
    await expect(promise).resolves.toBe(2);
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});

describe('computeDelayMs and error classification', () => {
  it('doubles from the initial delay, caps, and keeps jitter bounded', () => {
    expect(computeDelayMs(1, { jitter: 0 })).toBe(1000);
    expect(computeDelayMs(2, { jitter: 0 })).toBe(2000);
    expect(computeDelayMs(10, { jitter: 0, maxDelayMs: 5000 })).toBe(5000);
    expect(computeDelayMs(1, { jitter: 0.25, random: () => 0 })).toBe(875);
    expect(computeDelayMs(1, { jitter: 0.25, random: () => 1 })).toBe(1125);
  });

  it('recognises seed 004 errors by status or by text', () => {
    expect(classifyModelError(httpError(429, 'x')).kind).toBe('rate_limited');
    expect(classifyModelError(new Error('429 RESOURCE_EXHAUSTED: quota')).kind).toBe('rate_limited');
    expect(classifyModelError(new Error('500 INTERNAL')).kind).toBe('server_error');
    expect(classifyModelError(new Error('ServerError: overloaded')).kind).toBe('server_error');
    expect(classifyModelError(httpError(401, 'unauthorized')).kind).toBe('other');
    expect(classifyModelError(httpError(429, 'x', { 'retry-after': '120' })).retryAfterMs).toBeUndefined();
    expect(classifyModelError(httpError(429, 'x', { 'retry-after-ms': '250' })).retryAfterMs).toBe(250);
  });
});
