/**
 * The workers' branch lock on the real Redis (DB 15, a fresh key prefix per test): one holder at
 * a time across connections; renewed while held; lost by a holder that stops renewing (a killed
 * worker) once its time to live passes; a late release never deletes another holder's lock.
 */
import { afterAll, expect, it } from 'vitest';
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
    connections,
    key,
    close: () => connections.forEach((c) => c.disconnect()),
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
    const { locks, connections, key, close } = setup(1_500, 60_000);
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
      connections[0]!.disconnect();
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
