/**
 * The workers' branch lock on the real Redis (DB 15, a fresh key prefix per test): one holder at
 * a time across connections; renewed while held; lost by a holder that stops renewing (a killed
 * worker) once its time to live passes; a late release never deletes another holder's lock. It
 * keeps its word when Redis does not answer: against a closed port (an unreachable Redis) and a
 * TCP server that accepts and never answers (standing in for a frozen Redis) it goes on without
 * the lock after `maxWaitMs` and says why, and the run's signal stops its wait at once.
 */
import { createServer, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/observability/index.js';
import { QUEUE_NAME, queueConnection, redisBranchLock } from '../../src/queue/index.js';
import { describeWithRedis, REDIS_TEST_URL, uniqueNamespace, withRawRedis } from '../helpers/redis.js';

const prefixes: string[] = [];
afterAll(async () => {
  await withRawRedis(async (client) => {
    for (const prefix of prefixes) {
      const keys = await client.keys(`${prefix}:*`);
      if (keys.length > 0) await client.unlink(...keys);
    }
  });
});

function setup(ttlMs = 10_000, maxWaitMs = 60_000) {
  const prefix = `{${uniqueNamespace('lock')}}`;
  prefixes.push(prefix);
  const connections = [queueConnection(REDIS_TEST_URL), queueConnection(REDIS_TEST_URL)];
  const locks = connections.map((connection) => redisBranchLock({ connection, prefix, logger: silentLogger, ttlMs, maxWaitMs }));
  const key = `${prefix}:${QUEUE_NAME}:baton-lock:origin/main`;
  return {
    locks: locks as [(typeof locks)[0], (typeof locks)[0]],
    key,
    close: () => {
      locks.forEach((l) => l.close());
      connections.forEach((c) => c.disconnect());
    },
  };
}

await describeWithRedis('the Redis branch lock', () => {
  it('lets one worker hold a branch at a time; the next gets it when the first lets go', async () => {
    const { locks, close } = setup();
    try {
      const order: string[] = [];
      const releaseA = await locks[0].acquire('origin/main');
      order.push('a holds');
      const b = locks[1].acquire('origin/main').then((release) => {
        order.push('b holds');
        return release;
      });
      // Another branch is not held up.
      await (
        await locks[1].acquire('origin/other')
      )();
      order.push('a lets go');
      await releaseA();
      await (
        await b
      )();
      expect(order).toEqual(['a holds', 'a lets go', 'b holds']);
    } finally {
      close();
    }
  });

  it('keeps a held lock past its time to live by renewing it, and loses it once its holder stops renewing', async () => {
    const { locks, key, close } = setup(1_500, 60_000);
    try {
      await locks[0].acquire('origin/main');
      const held = await withRawRedis((client) => client.get(key));
      expect(held).not.toBeNull();
      // Renewed while held: its time to live goes back up (waited for, not timed).
      let lowest = await withRawRedis((client) => client.pttl(key));
      let renewed = false;
      for (let looks = 0; looks < 400 && !renewed; looks++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const ttl = await withRawRedis((client) => client.pttl(key));
        renewed = ttl > lowest + 100;
        lowest = Math.min(lowest, ttl);
      }
      expect(renewed).toBe(true);
      expect(await withRawRedis((client) => client.get(key))).toBe(held);
      // The holder dies (no more renewals): the other gets the lock once the time to live passes.
      locks[0].close();
      const releaseB = await locks[1].acquire('origin/main');
      const holder = await withRawRedis((client) => client.get(key));
      expect(holder).not.toBe(held);
      await releaseB();
      expect(await withRawRedis((client) => client.get(key))).toBeNull();
    } finally {
      close();
    }
  }, 30_000);

  it("never deletes another holder's lock with a late release, and lets a worker that waited too long go on without it", async () => {
    const { locks, key, close } = setup(300, 500);
    try {
      const lateRelease = await locks[0].acquire('origin/main');
      // A gives up renewing (as if stalled): B waits, then B holds it after the time to live.
      await withRawRedis((client) => client.set(key, 'taken-over-by-someone', 'PX', 60_000));
      await lateRelease();
      expect(await withRawRedis((client) => client.get(key))).toBe('taken-over-by-someone');
      // B cannot get it within its 500 ms: it goes on without the lock (the push is a compare-and-swap).
      const started = performance.now();
      const noLock = await locks[1].acquire('origin/main');
      expect(performance.now() - started).toBeGreaterThanOrEqual(450);
      await noLock();
      expect(await withRawRedis((client) => client.get(key))).toBe('taken-over-by-someone');
    } finally {
      close();
    }
  });
});

/** A TCP server that accepts connections and never answers: it stands in for a frozen Redis. */
async function frozenRedis(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}/15`,
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then closed): an unreachable Redis. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `redis://127.0.0.1:${port}/15`;
}

/** A lock on the worker's connection to `url` (BullMQ's: maxRetriesPerRequest null), and what it logs. */
function lockOn(url: string, maxWaitMs: number) {
  const lines: { msg: string }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) });
  const connection = queueConnection(url);
  connection.on('error', () => undefined);
  const lock = redisBranchLock({ connection, prefix: '{lock-test}', logger, maxWaitMs, commandTimeoutMs: 200 });
  return {
    lock,
    lines,
    close: () => {
      lock.close();
      connection.disconnect();
    },
  };
}

describe('the Redis branch lock when Redis does not answer', () => {
  for (const [kind, open] of [
    ['unreachable (a closed port)', async () => ({ url: await closedPort(), close: async () => {} })],
    ['frozen (accepts, never answers)', frozenRedis],
  ] as const) {
    it(`goes on without the lock after maxWaitMs when Redis is ${kind}, and says why`, async () => {
      const redis = await open();
      const { lock, lines, close } = lockOn(redis.url, 500);
      try {
        const started = performance.now();
        const release = await lock.acquire('origin/main');
        const waited = performance.now() - started;
        expect(waited).toBeGreaterThanOrEqual(450);
        // Bounded by maxWaitMs plus one command's timeout, not by BullMQ's endless retries.
        expect(waited).toBeLessThan(3_000);
        await release();
        expect(lines.map((l) => l.msg)).toContainEqual(
          expect.stringMatching(/^integrating without the branch lock after 500 ms: Redis did not answer/),
        );
      } finally {
        close();
        await redis.close();
      }
    }, 20_000);
  }

  it("stops waiting at once when the run's signal aborts (a frozen Redis, a 60 s maxWaitMs)", async () => {
    const redis = await frozenRedis();
    const { lock, close } = lockOn(redis.url, 60_000);
    try {
      const stop = new AbortController();
      const started = performance.now();
      const waiting = lock.acquire('origin/main', stop.signal);
      setTimeout(() => stop.abort(new Error('run stopped')), 100);
      await expect(waiting).rejects.toThrow('run stopped');
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      close();
      await redis.close();
    }
  }, 20_000);
});
