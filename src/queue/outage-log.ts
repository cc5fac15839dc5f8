import type { Redis } from 'ioredis';
import type { Logger } from '../observability/index.js';

/** Tells a worker's Redis outages in one line each, and when Redis is back in another. */
export interface OutageLog {
  /** An error of the queue worker: the outage's first line while Redis is down, else logged as it is. */
  error(error: unknown): void;
  /** Whether Redis is down now, or came back within `withinMs` (a job lock may have lapsed meanwhile). */
  recent(withinMs: number): boolean;
}

/**
 * Watches the worker's connection: while it is not ready, the queue worker's errors (BullMQ
 * reports every reconnection try, ~100 a minute) are one outage, told once; 'ready' after it says
 * Redis is back and how long it was gone.
 */
export function outageLog(connection: Redis, logger: Logger, now: () => number = Date.now): OutageLog {
  let downSince: number | undefined;
  let backAt: number | undefined;
  connection.on('ready', () => {
    if (downSince === undefined) return;
    logger.warn({ downMs: now() - downSince }, 'Redis is back; the worker goes on');
    downSince = undefined;
    backAt = now();
  });
  return {
    error(error) {
      if (connection.status === 'ready') {
        logger.error({ err: error }, 'queue worker error');
        return;
      }
      if (downSince !== undefined) return;
      downSince = now();
      logger.error({ err: error }, 'Redis unreachable: the worker waits for it (one line per outage; another when it is back)');
    },
    recent(withinMs) {
      return downSince !== undefined || (backAt !== undefined && now() - backAt <= withinMs);
    },
  };
}
