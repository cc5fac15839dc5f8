import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { BranchLock } from '../isolation/index.js';
import type { Logger } from '../observability/index.js';
import { QUEUE_NAME } from './defaults.js';

/** @default 10_000: a lock its worker no longer renews (killed) lapses after this long. */
export const DEFAULT_BRANCH_LOCK_TTL_MS = 10_000;
/**
 * @default 60_000: a worker that waited this long (Redis unreachable or frozen, or a holder that
 * never lets go) integrates without the lock; the push's compare-and-swap still keeps the result right.
 */
export const DEFAULT_BRANCH_LOCK_WAIT_MS = 60_000;
/** @default 2_000: one lock command (SET, renewal, release) that Redis does not answer in this long fails. */
export const BRANCH_LOCK_COMMAND_TIMEOUT_MS = 2_000;
/** Pauses between tries for a held lock: short first (integrations take ~0.1 s), then longer. */
const RETRY_MS = [10, 20, 40, 80, 160];

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface RedisBranchLockOptions {
  /**
   * The worker's Redis connection. The lock does not use it: it takes its own copy (`duplicate`)
   * whose commands fail after `commandTimeoutMs` (and at once when a connection attempt fails),
   * where BullMQ's connection (`maxRetriesPerRequest: null`) waits for Redis forever.
   */
  connection: Redis;
  /** The queue's key prefix: the lock's keys share its hash tag. */
  prefix: string;
  logger: Logger;
  /** @default DEFAULT_BRANCH_LOCK_TTL_MS */
  ttlMs?: number;
  /** @default DEFAULT_BRANCH_LOCK_WAIT_MS */
  maxWaitMs?: number;
  /** @default BRANCH_LOCK_COMMAND_TIMEOUT_MS */
  commandTimeoutMs?: number;
}

/** The workers' BranchLock; `close` ends its own connection. */
export interface RedisBranchLock extends BranchLock {
  close(): void;
}

/**
 * The workers' BranchLock: a Redis key per remote branch (`origin/main`; `SET NX PX`), renewed
 * every third of its time to live while held and deleted (if still ours) when released. A worker
 * that dies holding it loses it when its time to live passes. `acquire` keeps its word whatever
 * Redis does: after `maxWaitMs` (unreachable, frozen, or held all along) it goes on without the
 * lock and says so; its signal stops the wait at once.
 */
export function redisBranchLock(options: RedisBranchLockOptions): RedisBranchLock {
  const { logger } = options;
  const timeout = options.commandTimeoutMs ?? BRANCH_LOCK_COMMAND_TIMEOUT_MS;
  const connection = options.connection.duplicate({
    commandTimeout: timeout,
    connectTimeout: timeout,
    maxRetriesPerRequest: 0,
    enableReadyCheck: false,
    lazyConnect: false,
  });
  // Failures are told by the calls below; an unhandled 'error' event would only repeat them.
  connection.on('error', () => undefined);
  const ttl = options.ttlMs ?? DEFAULT_BRANCH_LOCK_TTL_MS;
  const maxWait = options.maxWaitMs ?? DEFAULT_BRANCH_LOCK_WAIT_MS;
  return {
    async acquire(branch, signal) {
      const key = `${options.prefix}:${QUEUE_NAME}:baton-lock:${branch}`;
      const token = randomBytes(8).toString('hex');
      const until = Date.now() + maxWait;
      let unreachable: unknown;
      for (let tries = 0; Date.now() < until; tries++) {
        signal?.throwIfAborted();
        const taken = await within(connection.set(key, token, 'PX', ttl, 'NX'), until - Date.now(), signal).catch((error: unknown) => {
          if (!unreachable) logger.warn({ err: error, key }, 'could not reach Redis for the branch lock; trying again');
          unreachable = error;
          return null;
        });
        if (taken === 'OK') return held(connection, key, token, ttl, logger);
        const pause = RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]! * (0.5 + Math.random());
        await delay(Math.max(0, Math.min(pause, until - Date.now())), undefined, signal ? { signal } : {}).catch(() => undefined);
      }
      const why = unreachable ? `Redis did not answer (${(unreachable as Error).message})` : 'another worker held it';
      logger.warn(
        { key, waitedMs: maxWait },
        `integrating without the branch lock after ${maxWait} ms: ${why} (the push is a compare-and-swap either way)`,
      );
      return async () => {};
    },
    close: () => connection.disconnect(),
  };
}

/** `call`, or a rejection once `ms` passed or the signal aborted (a frozen Redis never answers). */
function within<T>(call: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  call.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(ms)} ms`)), Math.max(0, ms));
    const onAbort = () => reject(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    call.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

/** Renews the lock while it is held; the returned function lets it go. */
function held(connection: Redis, key: string, token: string, ttl: number, logger: Logger): () => Promise<void> {
  let told = false;
  const lapsed = (why: string) => {
    if (!told) logger.warn({ key }, `the branch lock ${why} while held (the push is a compare-and-swap either way)`);
    told = true;
  };
  const renew = setInterval(() => {
    connection
      .eval(RENEW, 1, key, token, String(ttl))
      .then((renewed) => {
        if (renewed !== 1) lapsed('lapsed');
      })
      .catch((error: unknown) => lapsed(`could not be renewed (${(error as Error).message})`));
  }, ttl / 3);
  renew.unref();
  return async () => {
    clearInterval(renew);
    await connection.eval(RELEASE, 1, key, token).catch(() => undefined);
  };
}
