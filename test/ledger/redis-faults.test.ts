/**
 * Redis faults: unreachable, silent and password-protected servers fail fast with a clear
 * LEDGER_UNAVAILABLE; a server that restarts under an open ledger loses no write issued
 * meanwhile, and one that stays down surfaces as LEDGER_UNAVAILABLE after the command timeout;
 * corrupt rows name their key; nothing is left keeping the process alive.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { openLedger } from '../../src/ledger/index.js';
import { openRedisLedger } from '../../src/ledger/redis/index.js';
import {
  deleteNamespace,
  describeWithRedis,
  hasRedisServerBinary,
  REDIS_TEST_URL,
  startRedisServer,
  uniqueNamespace,
  withRawRedis,
} from '../helpers/redis.js';

/** The feature is "an error within ~2 s"; the bound is loose so a busy machine does not flake. */
const LOOSE_BOUND_MS = 4_000;

async function failureOf(promise: Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = performance.now();
  try {
    await promise;
  } catch (error) {
    return { error, elapsedMs: performance.now() - started };
  }
  throw new Error('expected the promise to reject');
}

describe('opening a Redis ledger that cannot be reached', () => {
  it('fails with LEDGER_UNAVAILABLE naming the URL without its password when the port is closed', async () => {
    const { error, elapsedMs } = await failureOf(openLedger({ spec: 'redis://:hunter2@127.0.0.1:1/0' }));
    expect(isBatonError(error, 'LEDGER_UNAVAILABLE')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('redis://127.0.0.1:1/0');
    expect(message).toContain('ECONNREFUSED');
    expect(message).not.toContain('hunter2');
    expect(elapsedMs).toBeLessThan(LOOSE_BOUND_MS);
  });

  it('refuses a malformed URL with INPUT_INVALID before connecting, without echoing the password', async () => {
    for (const spec of ['redis://:hunter2@127.0.0.1:notaport/0', 'redis://127.0.0.1:6379/abc']) {
      const { error } = await failureOf(openLedger({ spec }));
      expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
      expect((error as Error).message).toContain('Invalid Redis URL');
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('gives up on a server that accepts but never answers after connectTimeoutMs', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const { error, elapsedMs } = await failureOf(openLedger({ spec: `redis://127.0.0.1:${port}/0`, connectTimeoutMs: 500 }));
      expect(isBatonError(error, 'LEDGER_UNAVAILABLE')).toBe(true);
      expect((error as Error).message).toContain(`redis://127.0.0.1:${port}/0`);
      expect((error as Error).message).toContain('500 ms');
      expect(elapsedMs).toBeGreaterThanOrEqual(400);
      expect(elapsedMs).toBeLessThan(LOOSE_BOUND_MS);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('leaves nothing that keeps the process alive after a failed open', () => {
    // A child process that opens an unreachable Redis and then simply ends its script: it must exit
    // on its own. A leftover socket or reconnect timer would keep it running until the timeout.
    const script = `
      const { openLedger } = await import('./src/ledger/index.ts');
      try { await openLedger({ spec: 'redis://127.0.0.1:1/0' }); } catch (e) { console.log(e.code); }
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('LEDGER_UNAVAILABLE');
  });
});

const canStartServers = hasRedisServerBinary();
if (!canStartServers) console.warn('redis-server binary not found, skipping the password and server-death tests');

describe.skipIf(!canStartServers)('a password-protected Redis that goes away', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  it('rejects a wrong password within the timeout, naming the URL but not the password', async () => {
    const server = await startRedisServer({ password: 'right-secret' });
    stops.push(server.stop);
    const wrong = `redis://:wrong-secret@127.0.0.1:${server.port}/0`;
    const { error, elapsedMs } = await failureOf(openLedger({ spec: wrong }));
    expect(isBatonError(error, 'LEDGER_UNAVAILABLE')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`redis://127.0.0.1:${server.port}/0`);
    expect(message).toMatch(/refused the credentials.*WRONGPASS/);
    expect(message).not.toContain('wrong-secret');
    expect(elapsedMs).toBeLessThan(LOOSE_BOUND_MS);

    const missing = await failureOf(openLedger({ spec: `redis://127.0.0.1:${server.port}/0`, namespace: 'x' }));
    expect(isBatonError(missing.error, 'LEDGER_UNAVAILABLE')).toBe(true);
    expect((missing.error as Error).message).toContain('NOAUTH');
  });

  it('opens with the right password and reports a server that stays down as LEDGER_UNAVAILABLE after commandTimeoutMs', async () => {
    const server = await startRedisServer({ password: 'right-secret' });
    stops.push(server.stop);
    const ledger = await openRedisLedger(server.url, { connectTimeoutMs: 1_000, commandTimeoutMs: 1_000, namespace: 'dies' });
    expect(ledger.location).toBe(`redis://127.0.0.1:${server.port}/0`);
    await ledger.createTask({ id: 't1', title: 'survives until the server dies' });
    expect((await ledger.getTask('t1'))?.title).toBe('survives until the server dies');

    await server.stop();
    const { error, elapsedMs } = await failureOf(ledger.getTask('t1'));
    expect(isBatonError(error, 'LEDGER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain(`redis://127.0.0.1:${server.port}/0`);
    expect((error as Error).message).toContain('getTask');
    // It waited for a reconnection (the command timeout), not forever.
    expect(elapsedMs).toBeGreaterThanOrEqual(900);
    expect(elapsedMs).toBeLessThan(1_000 + LOOSE_BOUND_MS);
    await ledger.close();
  });

  it('fails a command on a hung server after commandTimeoutMs instead of waiting forever', async () => {
    const server = await startRedisServer();
    stops.push(server.stop);
    const ledger = await openRedisLedger(server.url, { connectTimeoutMs: 1_000, commandTimeoutMs: 300, namespace: 'hung' });
    try {
      server.signal('SIGSTOP');
      const { error, elapsedMs } = await failureOf(ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'p' }));
      expect(isBatonError(error, 'LEDGER_UNAVAILABLE')).toBe(true);
      expect((error as Error).message).toContain('timed out');
      expect(elapsedMs).toBeLessThan(LOOSE_BOUND_MS);
    } finally {
      server.signal('SIGCONT');
      await ledger.close();
    }
  });

  it('keeps a write issued while the server restarts: it waits for the reconnection and lands once', async () => {
    const first = await startRedisServer();
    stops.push(first.stop);
    const ledger = await openLedger({ spec: first.url, namespace: 'restart' });
    try {
      await first.stop();
      // Issued while the server is down: it waits (up to the command timeout, 10 s) instead of failing.
      const write = ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'p' });
      const second = await startRedisServer({ port: first.port });
      stops.push(second.stop);
      expect((await write).seq).toBe(1);
      expect(await ledger.countDispatches()).toBe(1);
      expect((await ledger.appendDispatch({ taskId: 't1', attempt: 2, provider: 'p' })).seq).toBe(2);
    } finally {
      await ledger.close();
    }
  });
});

await describeWithRedis('redis ledger data faults', () => {
  const namespace = uniqueNamespace('faults');
  afterAll(async () => {
    await deleteNamespace(namespace);
  });

  it('reports a corrupt task row as LEDGER_CORRUPT naming its key and field', async () => {
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    try {
      await ledger.createTask({ id: 'bad', title: 'will be corrupted' });
      const key = `baton:${namespace}:task:bad`;
      await withRawRedis(async (client) => {
        const raw = JSON.parse((await client.hget(key, 'v')) as string);
        await client.hset(key, 'v', JSON.stringify({ ...raw, status: 'exploded' }));
      });
      const { error } = await failureOf(ledger.getTask('bad'));
      expect(isBatonError(error, 'LEDGER_CORRUPT')).toBe(true);
      expect((error as Error).message).toContain(key);
      expect((error as Error).message).toContain('status');

      await withRawRedis((client) => client.hset(key, 'v', '{not json'));
      const notJson = await failureOf(ledger.updateTask('bad', { title: 'x' }));
      expect(isBatonError(notJson.error, 'LEDGER_CORRUPT')).toBe(true);
      expect((notJson.error as Error).message).toContain('not JSON');
    } finally {
      await ledger.close();
    }
  });

  it('reports a foreign key of the wrong type as LEDGER_CORRUPT instead of unavailable', async () => {
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    try {
      await withRawRedis((client) => client.set(`baton:${namespace}:dispatches`, 'not a zset'));
      const { error } = await failureOf(ledger.countDispatches());
      expect(isBatonError(error, 'LEDGER_CORRUPT')).toBe(true);
      expect((error as Error).message).toContain('WRONGTYPE');
    } finally {
      await ledger.close();
    }
  });

  it('refuses a database the server does not have instead of silently using DB 0', async () => {
    const url = new URL(REDIS_TEST_URL);
    url.pathname = '/99';
    const { error } = await failureOf(openLedger({ spec: url.toString(), namespace }));
    expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
    expect((error as Error).message).toContain('no database 99');
  });

  it('refuses a namespace that could overlap another one', async () => {
    const { error } = await failureOf(openLedger({ spec: REDIS_TEST_URL, namespace: 'a:b' }));
    expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
    expect((error as Error).message).toContain('"a:b"');
  });
});
