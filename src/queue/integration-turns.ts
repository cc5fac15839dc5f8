import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { EndTurn, IntegrationOutcome, IntegrationTurns, OfferedCommit, SharedTip } from '../isolation/index.js';
import type { Logger } from '../observability/index.js';
import { QUEUE_NAME } from './defaults.js';

/** @default 5_000: a turn its worker no longer renews (killed) passes on after this long. */
export const DEFAULT_TURN_TTL_MS = 5_000;

/** Offers and outcomes of a run branch nobody touched for this long are dropped. @default 600_000 */
const KEEP_MS = 600_000;

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
/**
 * The turn if free, with the tip its last holder pushed ('' when unknown) and the commits offered
 * meanwhile (so the new holder needs no second look), else nothing.
 */
const TAKE = `if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
return {redis.call('GET', KEYS[2]) or '', redis.call('HVALS', KEYS[3])} end return false`;
/** One look for a waiting worker: its commit's outcome if settled, else the turn if free (as TAKE), else nothing. */
const LOOK = `local o = redis.call('GET', KEYS[2]) if o then return {'outcome', o} end
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
return {'turn', redis.call('GET', KEYS[3]) or '', redis.call('HVALS', KEYS[4])} end return false`;
/** Ends the turn held with ARGV[1]; records ARGV[2], the tip it pushed, unless empty. */
const END = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) end return redis.call('DEL', KEYS[1])`;

/**
 * How long a waiting worker sleeps between looks: short first, since most turns last tens of ms.
 * The end of a turn wakes it sooner (turnEnds); the looks cover a holder that died.
 */
const POLL_MS = [4, 8, 16, 24];

/** The pause before look number `look + 1`, jittered so that waiting workers do not look in step. */
function pauseMs(look: number, pauses: readonly number[]): number {
  return pauses[Math.min(look, pauses.length - 1)]! * (0.5 + Math.random());
}

export interface RedisTurnsOptions {
  connection: Redis;
  prefix: string;
  /** The worker's name, recorded in the outcomes it settles. */
  owner: string;
  ttlMs?: number;
  /** Pauses between a waiting worker's looks, the last repeated. @default POLL_MS */
  pausesMs?: readonly number[];
  logger: Logger;
}

/**
 * IntegrationTurns for the workers of one queue, kept in Redis beside the queue's own keys (same
 * hash tag): a turn key per run branch (SET NX with a renewed expiry), a hash of offered commits
 * and an outcome key per offered attempt; the pushed tips are shared on a channel per run branch
 * (pub/sub: a worker that is not listening misses them and fetches instead). Without turns, workers that finish together all fetch,
 * merge and push, and every push but one is refused and redone: on 2 cores with 4 workers that was
 * 4 tries per task and 1.6 s of overhead each.
 */
export function redisTurns(options: RedisTurnsOptions): IntegrationTurns {
  const { connection, logger } = options;
  const ttl = options.ttlMs ?? DEFAULT_TURN_TTL_MS;
  const pauses = options.pausesMs?.length ? options.pausesMs : POLL_MS;
  const ends = subscriptions(connection, logger);
  const keys = (branch: string) => {
    const base = `${options.prefix}:${QUEUE_NAME}:baton-turn:${branch}`;
    return {
      turn: base,
      ended: `${base}:ended`,
      tips: `${base}:tips`,
      tip: `${base}:tip`,
      offers: `${base}:offers`,
      outcome: (taskId: string, attempt: number) => `${base}:outcome:${taskId}:${attempt}`,
    };
  };

  /** The turn on `branch` held with `token`, its expiry renewed until it ends. */
  const held = (branch: string, token: string, lastPushed: string, offers: readonly string[]): EndTurn => {
    const k = keys(branch);
    const renew = setInterval(() => {
      connection.eval(RENEW, 1, k.turn, token, String(ttl)).catch(() => undefined);
    }, ttl / 3);
    renew.unref();
    const end = async (pushed?: string) => {
      clearInterval(renew);
      const ended = await connection.eval(END, 2, k.turn, k.tip, token, pushed ?? '', String(KEEP_MS)).catch(() => 0);
      if (ended === 1) connection.publish(k.ended, '1').catch(() => undefined);
    };
    return Object.assign(end, { offered: oldestFirst(offers) }, lastPushed ? { lastPushed } : {});
  };
  const takeNow = async (branch: string): Promise<EndTurn | undefined> => {
    const k = keys(branch);
    const token = randomBytes(8).toString('hex');
    const taken = (await connection.eval(TAKE, 3, k.turn, k.tip, k.offers, token, String(ttl))) as [string, string[]] | null;
    return taken === null ? undefined : held(branch, token, taken[0], taken[1]);
  };
  const tryTake = async (branch: string, waitMs = 0): Promise<EndTurn | undefined> => {
    const until = Date.now() + waitMs;
    for (let look = 0; ; look++) {
      const end = await takeNow(branch);
      if (end || Date.now() >= until) return end;
      await ends.next(keys(branch).ended, Math.min(until - Date.now(), pauseMs(look, pauses)));
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
      return oldestFirst(Object.values(await connection.hgetall(keys(branch).offers))).slice(0, limit);
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
        const found = (await connection.eval(LOOK, 4, k.turn, k.outcome(taskId, attempt), k.tip, k.offers, token, String(ttl))) as
          [string, string, string[]?] | null;
        if (found?.[0] === 'outcome') return { outcome: JSON.parse(found[1]) as IntegrationOutcome };
        if (found?.[0] === 'turn') return { end: held(branch, token, found[1], found[2] ?? []) };
        await ends.next(k.ended, pauseMs(look, pauses));
      }
    },
    async share(branch, { base, tip, pack }) {
      await connection.publish(keys(branch).tips, Buffer.concat([Buffer.from(`${base} ${tip} ${options.owner}\n`), pack]));
    },
    onShared(branch, receive) {
      ends.listen(keys(branch).tips, (message) => {
        const shared = parseSharedTip(message);
        if (shared) receive(shared);
        else logger.debug({ branch }, 'a shared tip that could not be read was left out');
      });
    },
    close: async () => ends.close(),
  };
}

/** A shared tip as published: "base tip by" on the first line, then the pack's bytes. */
function parseSharedTip(message: Buffer): SharedTip | undefined {
  const end = message.indexOf(0x0a);
  const [base, tip, by] = message.subarray(0, Math.max(0, end)).toString('utf8').split(' ');
  if (!base || !tip || !by) return undefined;
  return { base, tip, by, pack: message.subarray(end + 1) };
}

/** Offered commits as stored (JSON with the time offered), oldest first. */
function oldestFirst(stored: readonly string[]): OfferedCommit[] {
  return stored
    .map((text) => JSON.parse(text) as OfferedCommit & { at: number })
    .sort((a, b) => a.at - b.at)
    .map(({ at: _at, ...commit }) => commit);
}

/**
 * The worker's subscriptions, on a connection of their own opened at the first use: the end of a
 * turn wakes a waiting worker at once (`next`), so the turn does not sit free until its next look,
 * up to a pause (4-24 ms) at every hand-over, where a turn that is only a push lasts ~25 ms; and
 * the tips others share (`listen`). A message lost, or a subscription not made (a server without
 * pub/sub), leaves the looks and the fetches as before.
 */
function subscriptions(
  connection: Redis,
  logger: Logger,
): { next(channel: string, ms: number): Promise<void>; listen(channel: string, receive: (message: Buffer) => void): void; close(): void } {
  let subscriber: Redis | undefined;
  const subscribed = new Set<string>();
  const waiting = new Map<string, Set<() => void>>();
  const receivers = new Map<string, (message: Buffer) => void>();
  const subscribe = (channel: string) => {
    if (!subscriber) {
      subscriber = connection.duplicate();
      subscriber.on('error', (error: unknown) =>
        logger.debug({ err: error }, 'turn wake-ups and shared tips unavailable; workers look and fetch as before'),
      );
      subscriber.on('messageBuffer', (from: Buffer, message: Buffer) => {
        const channel = from.toString('utf8');
        for (const wake of waiting.get(channel) ?? []) wake();
        receivers.get(channel)?.(message);
      });
    }
    if (subscribed.has(channel)) return;
    subscribed.add(channel);
    subscriber.subscribe(channel).catch(() => subscribed.delete(channel));
  };
  return {
    next: (channel, ms) => {
      subscribe(channel);
      return new Promise<void>((resolve) => {
        const wakers = waiting.get(channel) ?? new Set<() => void>();
        waiting.set(channel, wakers);
        const wake = () => {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(0, ms));
        wakers.add(wake);
      });
    },
    listen: (channel, receive) => {
      receivers.set(channel, receive);
      subscribe(channel);
    },
    close: () => {
      subscriber?.disconnect();
      subscriber = undefined;
      subscribed.clear();
      receivers.clear();
    },
  };
}
