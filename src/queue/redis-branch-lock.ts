import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { BranchLock } from '../isolation/index.js';
import type { Logger } from '../observability/index.js';
import { QUEUE_NAME } from './defaults.js';

/** @default 10_000: a lock its worker no longer renews (killed) lapses after this long. */
export const DEFAULT_BRANCH_LOCK_TTL_MS = 10_000;
/**
 * @default 60_000: a worker that waited this long (Redis unreachable, or a holder that never
 * lets go) integrates without the lock; the push's compare-and-swap still keeps the result right.
 */
export const DEFAULT_BRANCH_LOCK_WAIT_MS = 60_000;
/** Pauses between tries for a held lock: short first (integrations take ~0.1 s), then longer. */
const RETRY_MS = [10, 20, 40, 80, 160];

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface RedisBranchLockOptions {
  connection: Redis;
  /** The queue's key prefix: the lock's keys share its hash tag. */
  prefix: string;
  logger: Logger;
  /** @default DEFAULT_BRANCH_LOCK_TTL_MS */
  ttlMs?: number;
  /** @default DEFAULT_BRANCH_LOCK_WAIT_MS */
  maxWaitMs?: number;
}

/**
 * The workers' BranchLock: a Redis key per remote branch (`origin/main`; `SET NX PX`), renewed every third of its
 * time to live while held and deleted (if still ours) when released. A worker that dies holding it
 * loses it when its time to live passes.
 */
export function redisBranchLock(options: RedisBranchLockOptions): BranchLock {
  const { connection, logger } = options;
  const ttl = options.ttlMs ?? DEFAULT_BRANCH_LOCK_TTL_MS;
  const maxWait = options.maxWaitMs ?? DEFAULT_BRANCH_LOCK_WAIT_MS;
  return {
    async acquire(branch, signal) {
      const key = `${options.prefix}:${QUEUE_NAME}:baton-lock:${branch}`;
      const token = randomBytes(8).toString('hex');
      const until = Date.now() + maxWait;
      for (let tries = 0; Date.now() < until; tries++) {
        const taken = await connection.set(key, token, 'PX', ttl, 'NX').catch((error: unknown) => {
          if (tries === 0) logger.warn({ err: error, key }, 'could not reach Redis for the branch lock; trying again');
          return null;
        });
        if (taken === 'OK') return held(connection, key, token, ttl, logger);
        await delay(RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]! * (0.5 + Math.random()), undefined, { signal });
      }
      logger.warn({ key, waitedMs: maxWait }, 'integrating without the branch lock (the push is a compare-and-swap either way)');
      return async () => {};
    },
  };
}

/** Renews the lock while it is held; the returned function lets it go. */
function held(connection: Redis, key: string, token: string, ttl: number, logger: Logger): () => Promise<void> {
  const renew = setInterval(() => {
    connection
      .eval(RENEW, 1, key, token, String(ttl))
      .then((renewed) => {
        if (renewed !== 1) logger.warn({ key }, 'the branch lock lapsed while held (the push is a compare-and-swap either way)');
      })
      .catch(() => undefined);
  }, ttl / 3);
  renew.unref();
  return async () => {
    clearInterval(renew);
    await connection.eval(RELEASE, 1, key, token).catch(() => undefined);
  };
}
