import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { EndTurn, IntegrationOutcome, IntegrationTurns, OfferedCommit } from '../isolation/index.js';
import type { Logger } from '../observability/index.js';
import { QUEUE_NAME } from './defaults.js';

/** @default 5_000: a turn its worker no longer renews (killed) passes on after this long. */
export const DEFAULT_TURN_TTL_MS = 5_000;

/** Offers and outcomes of a run branch nobody touched for this long are dropped. @default 600_000 */
const KEEP_MS = 600_000;

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
/** One look for a waiting worker: its commit's outcome if settled, else the turn if free (the token), else nothing. */
const LOOK = `local o = redis.call('GET', KEYS[2]) if o then return {'outcome', o} end
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {'turn', ARGV[1]} end return false`;
const END = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** How long a waiting worker sleeps between looks: short first, since most turns last tens of ms. */
const POLL_MS = [4, 8, 16, 24];

/** The pause before look number `look + 1`, jittered so that waiting workers do not look in step. */
function pauseMs(look: number): number {
  return POLL_MS[Math.min(look, POLL_MS.length - 1)]! * (0.5 + Math.random());
}

export interface RedisTurnsOptions {
  connection: Redis;
  prefix: string;
  /** The worker's name, recorded in the outcomes it settles. */
  owner: string;
  ttlMs?: number;
  logger: Logger;
}

/**
 * IntegrationTurns for the workers of one queue, kept in Redis beside the queue's own keys (same
 * hash tag): a turn key per run branch (SET NX with a renewed expiry), a hash of offered commits
 * and an outcome key per offered attempt. Without turns, workers that finish together all fetch,
 * merge and push, and every push but one is refused and redone: on 2 cores with 4 workers that was
 * 4 tries per task and 1.6 s of overhead each.
 */
export function redisTurns(options: RedisTurnsOptions): IntegrationTurns {
  const { connection, logger } = options;
  const ttl = options.ttlMs ?? DEFAULT_TURN_TTL_MS;
  const keys = (branch: string) => {
    const base = `${options.prefix}:${QUEUE_NAME}:baton-turn:${branch}`;
    return { turn: base, offers: `${base}:offers`, outcome: (taskId: string, attempt: number) => `${base}:outcome:${taskId}:${attempt}` };
  };

  /** The turn held with `token`, its expiry renewed until it ends. */
  const held = (key: string, token: string): EndTurn => {
    const renew = setInterval(() => {
      connection.eval(RENEW, 1, key, token, String(ttl)).catch(() => undefined);
    }, ttl / 3);
    renew.unref();
    return async () => {
      clearInterval(renew);
      await connection.eval(END, 1, key, token).catch(() => undefined);
    };
  };
  const takeNow = async (branch: string): Promise<EndTurn | undefined> => {
    const key = keys(branch).turn;
    const token = randomBytes(8).toString('hex');
    return (await connection.set(key, token, 'PX', ttl, 'NX')) === 'OK' ? held(key, token) : undefined;
  };
  const tryTake = async (branch: string, waitMs = 0): Promise<EndTurn | undefined> => {
    const until = Date.now() + waitMs;
    for (let look = 0; ; look++) {
      const end = await takeNow(branch);
      if (end || Date.now() >= until) return end;
      await sleep(Math.min(until - Date.now(), pauseMs(look)));
    }
  };

  return {
    by: options.owner,
    tryTake,
    async take(branch) {
      try {
        for (;;) {
          const end = await tryTake(branch, 60_000);
          if (end) return end;
        }
      } catch (error) {
        logger.warn({ err: error, branch }, 'integrating without a turn: Redis did not answer (the push still checks the branch)');
        return async () => {};
      }
    },
    async offer(branch, commit) {
      const { offers } = keys(branch);
      await connection
        .multi()
        .hset(offers, commit.taskId, JSON.stringify({ ...commit, at: Date.now() }))
        .pexpire(offers, KEEP_MS)
        .exec();
    },
    async offered(branch, limit) {
      const all = Object.values(await connection.hgetall(keys(branch).offers)).map(
        (text) => JSON.parse(text) as OfferedCommit & { at: number },
      );
      return all
        .sort((a, b) => a.at - b.at)
        .slice(0, limit)
        .map(({ at: _at, ...commit }) => commit);
    },
    async settle(branch, outcomes, taskIds) {
      const k = keys(branch);
      const batch = connection.multi();
      for (const { commit, outcome } of outcomes)
        batch.set(k.outcome(commit.taskId, commit.attempt), JSON.stringify(outcome), 'PX', KEEP_MS);
      if (taskIds.length > 0) batch.hdel(k.offers, ...taskIds);
      await batch.exec();
    },
    async awaitOutcome(branch, taskId, attempt) {
      const k = keys(branch);
      const token = randomBytes(8).toString('hex');
      // One script per look (outcome first, then the turn), so a holder that settles and then
      // lets go is never mistaken for a free turn with nothing settled.
      for (let look = 0; ; look++) {
        const found = (await connection.eval(LOOK, 2, k.turn, k.outcome(taskId, attempt), token, String(ttl))) as [string, string] | null;
        if (found?.[0] === 'outcome') return { outcome: JSON.parse(found[1]) as IntegrationOutcome };
        if (found?.[0] === 'turn') return { end: held(k.turn, token) };
        await sleep(pauseMs(look));
      }
    },
  };
}
