/**
 * Issue 34 item 4: openLedger's timeouts are checked at the edge. A Redis timeout past what a Node
 * timer holds (Infinity threw an uncaught RangeError from the socket and killed the process; 1e12
 * became a 1 ms timer and failed at once) waits the longest a timer can; a SQLite busy timeout of
 * NaN, Infinity or -1 is refused naming the field, the value and the range.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_MS, openLedger } from '../../src/ledger/index.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';

const namespaces: string[] = [];
afterAll(async () => {
  for (const namespace of namespaces) await deleteNamespace(namespace);
});

await describeWithRedis('a Redis timeout longer than a timer holds', () => {
  it.each([Number.POSITIVE_INFINITY, 1e12, MAX_TIMEOUT_MS + 1])(
    'opens a healthy Redis with connectTimeoutMs %d, writes and reads back',
    async (connectTimeoutMs) => {
      const namespace = uniqueNamespace('timeouts');
      namespaces.push(namespace);
      // An uncaught RangeError here would fail the run (vitest reports unhandled errors).
      const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace, connectTimeoutMs });
      try {
        await ledger.createTask({ id: 'kept', title: 'kept' });
        expect((await ledger.getTask('kept'))?.title).toBe('kept');
      } finally {
        await ledger.close();
      }
    },
  );
});

describe('timeouts out of range are refused before anything opens', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-timeouts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'agent.db');

  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [-1, '-1'],
    [MAX_TIMEOUT_MS + 1, String(MAX_TIMEOUT_MS + 1)],
  ])('busyTimeoutMs %d', async (busyTimeoutMs, shown) => {
    await expect(openLedger({ spec: `sqlite:${file}`, busyTimeoutMs })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: `openLedger options: busyTimeoutMs: a number of milliseconds from 0 to ${MAX_TIMEOUT_MS}; got ${shown}`,
      details: { field: 'busyTimeoutMs' },
    });
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    [Number.NaN, 'NaN'],
    [0, '0'],
    [-1, '-1'],
  ])('connectTimeoutMs %d', async (connectTimeoutMs, shown) => {
    await expect(openLedger({ spec: 'redis://127.0.0.1:6379/0', connectTimeoutMs })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: `openLedger options: connectTimeoutMs: a positive number of milliseconds (Infinity waits the longest a timer can); got ${shown}`,
      details: { field: 'connectTimeoutMs' },
    });
  });

  it('opens SQLite with the longest busy timeout', async () => {
    const ledger = await openLedger({ spec: `sqlite:${file}`, busyTimeoutMs: MAX_TIMEOUT_MS });
    await ledger.close();
    expect(existsSync(file)).toBe(true);
  });
});
