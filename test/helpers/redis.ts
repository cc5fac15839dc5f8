/**
 * Shared plumbing of the Redis tests: is the test Redis reachable, a fresh namespace per ledger,
 * and removing a namespace's keys afterwards. Tests use DB 15 of 127.0.0.1:6379 so they never touch
 * a developer's DB 0 (override with BATON_TEST_REDIS_URL).
 *
 * Without Redis the tests are skipped with a visible message, unless BATON_REQUIRE_REDIS=1 (CI),
 * in which case they fail. `startRedisServer` runs a throwaway `redis-server` child (a server a
 * test may kill, or one that asks for a password).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';

const DEFAULT_TEST_URL = 'redis://127.0.0.1:6379/15';
export const REDIS_TEST_URL = process.env.BATON_TEST_REDIS_URL ?? DEFAULT_TEST_URL;
export const REDIS_SKIP_MESSAGE = 'Redis not reachable at 127.0.0.1:6379, skipping Redis tests';
const PROBE_TIMEOUT_MS = 1_500;

let probe: Promise<boolean> | undefined;

/** Whether the test Redis answers PING (checked once per test file). */
export function isRedisReachable(url: string = REDIS_TEST_URL): Promise<boolean> {
  probe ??= (async () => {
    const client = rawClient(url, PROBE_TIMEOUT_MS);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  })();
  return probe;
}

/** Whether BATON_REQUIRE_REDIS asks for the Redis tests to fail rather than skip. */
export function isRedisRequired(): boolean {
  return process.env.BATON_REQUIRE_REDIS === '1' || process.env.BATON_REQUIRE_REDIS === 'true';
}

/**
 * `describe` for tests that need the test Redis: runs them when it answers; otherwise skips them
 * with a visible message, or (BATON_REQUIRE_REDIS=1) registers one failing test in their place.
 */
export async function describeWithRedis(name: string, body: () => void): Promise<void> {
  if (await isRedisReachable()) {
    describe(name, body);
    return;
  }
  if (isRedisRequired()) {
    describe(name, () => {
      it('needs a Redis at 127.0.0.1:6379 (BATON_REQUIRE_REDIS=1)', () => {
        throw new Error(`Redis not reachable at ${REDIS_TEST_URL}, and BATON_REQUIRE_REDIS=1 requires the Redis tests`);
      });
    });
    return;
  }
  console.warn(REDIS_TEST_URL === DEFAULT_TEST_URL ? REDIS_SKIP_MESSAGE : `Redis not reachable at ${REDIS_TEST_URL}, skipping Redis tests`);
  describe.skip(name, body);
}

let counter = 0;

/** A namespace no other test file, run or process uses. */
export function uniqueNamespace(label: string): string {
  counter += 1;
  return `test-${label}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** Deletes every key under `baton:<namespace>:`; returns how many it deleted. */
export async function deleteNamespace(namespace: string, url: string = REDIS_TEST_URL): Promise<number> {
  return withRawRedis(async (client) => {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `baton:${namespace}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await client.unlink(...keys);
    } while (cursor !== '0');
    return deleted;
  }, url);
}

/** Runs `use` with a plain client on the test Redis (for arranging corrupt rows and checking keys). */
export async function withRawRedis<T>(use: (client: Redis) => Promise<T>, url: string = REDIS_TEST_URL): Promise<T> {
  const client = rawClient(url, 5_000);
  try {
    await client.connect();
    return await use(client);
  } finally {
    client.disconnect();
  }
}

function rawClient(url: string, timeoutMs: number): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => {
    // Reported through the failing command; the event only needs a listener.
  });
  return client;
}

export interface TestRedisServer {
  port: number;
  /** redis://[:password@]127.0.0.1:port/0 */
  url: string;
  /** Kills the server (SIGKILL) and waits for it to exit. */
  stop: () => Promise<void>;
  /** Sends a signal, e.g. SIGSTOP to make it hang with its sockets open, SIGCONT to resume. */
  signal(signal: NodeJS.Signals): void;
}

export function hasRedisServerBinary(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function startRedisServer(
  options: { password?: string; port?: number; appendOnlyDir?: string } = {},
): Promise<TestRedisServer> {
  const port = options.port ?? (await freePort());
  // appendOnlyDir: persist every write there (AOF, fsync always), so a restart on it loses nothing.
  const persistence = options.appendOnlyDir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', options.appendOnlyDir]
    : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--daemonize', 'no'];
  if (options.password) args.push('--requirepass', options.password);
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  const url = `redis://${auth}127.0.0.1:${port}/0`;
  await waitUntilAnswering(url, child);
  return { port, url, stop: () => stop(child), signal: (signal) => child.kill(signal) };
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const client = rawClient(url, 1_000);
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop(child);
  throw new Error('redis-server did not start within 5 s');
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
