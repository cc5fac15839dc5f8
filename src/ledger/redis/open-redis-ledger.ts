import { Redis } from 'ioredis';
import { BatonError } from '../../errors/index.js';
import { getLogger } from '../../observability/index.js';
import type { Ledger } from '../ledger.js';
import { MAX_TIMEOUT_MS } from '../max-timeout.js';
import { createRedisKeys } from './redis-keys.js';
import { createRedisLedger } from './redis-ledger.js';
import { defineLedgerScripts } from './redis-scripts.js';

/** @default 10000: how long one command may wait for its reply before LEDGER_UNAVAILABLE. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

export interface RedisLedgerOptions {
  /**
   * How long to wait for the connection before failing with LEDGER_UNAVAILABLE. openLedger passes
   * DEFAULT_CONNECT_TIMEOUT_MS (2000) unless told otherwise.
   */
  connectTimeoutMs: number;
  /**
   * How long a command may wait for its reply. Longer than the connect timeout because a busy
   * shared server (a big import from another process) can delay a healthy reply by seconds,
   * while a dead server fails commands at once through the closed socket.
   * @default max(DEFAULT_COMMAND_TIMEOUT_MS, connectTimeoutMs)
   */
  commandTimeoutMs?: number;
  /** Keys live under `baton:<namespace>:`. Letters, digits, `_`, `-` and `.` only. */
  namespace: string;
  /** Clock for timestamps and lease ends. @default Date.now */
  now?: () => number;
}

const NAMESPACE_PATTERN = /^[A-Za-z0-9_.-]+$/;
/** Longest pause between reconnection tries once a connection has worked. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * Connects to Redis or DragonflyDB and returns the ledger stored there.
 *
 * Never hangs: when the server does not answer, refuses the connection or rejects the password,
 * it rejects within `connectTimeoutMs` with BatonError('LEDGER_UNAVAILABLE') naming the URL
 * without its password, and leaves no socket or timer behind. Once connected, a lost connection
 * is retried, and commands wait for it (a server restarting for a few seconds loses no write: an
 * agent's finished result is recorded once it is back), each at most `commandTimeoutMs` (10 s, or
 * BATON_REDIS_TIMEOUT_MS when that is longer) before it fails with LEDGER_UNAVAILABLE.
 *
 * @example
 * const ledger = await openRedisLedger('redis://127.0.0.1:6379/0', { connectTimeoutMs: 2000, namespace: 'default' });
 */
export async function openRedisLedger(url: string, options: RedisLedgerOptions): Promise<Ledger> {
  const location = redactRedisUrl(url);
  checkRedisUrl(url, location);
  // The namespace can come from BATON_NAMESPACE, which no option schema has seen.
  if (!NAMESPACE_PATTERN.test(options.namespace)) {
    throw new BatonError(
      'INPUT_INVALID',
      `Invalid Redis namespace ${JSON.stringify(options.namespace)}: use letters, digits, _, - and . only`,
      { details: { field: 'namespace', value: options.namespace } },
    );
  }
  // Above MAX_TIMEOUT_MS (Infinity included) a Node timer fires after 1 ms and a socket throws a
  // RangeError nobody catches, so a longer wait is the longest.
  const connectTimeoutMs = Math.min(options.connectTimeoutMs, MAX_TIMEOUT_MS);
  const commandTimeoutMs = Math.min(options.commandTimeoutMs ?? Math.max(DEFAULT_COMMAND_TIMEOUT_MS, connectTimeoutMs), MAX_TIMEOUT_MS);
  const redis = await connect(url, location, connectTimeoutMs, commandTimeoutMs);
  return createRedisLedger({
    redis: defineLedgerScripts(redis),
    keys: createRedisKeys(options.namespace),
    now: options.now ?? Date.now,
    location,
  });
}

/**
 * Connects and selects the database within `timeoutMs`, or disconnects and throws: LEDGER_UNAVAILABLE
 * (unreachable, refused credentials) or INPUT_INVALID (no such database). Leaves no timer behind.
 */
async function connect(url: string, location: string, timeoutMs: number, commandTimeoutMs: number): Promise<Redis> {
  let connected = false;
  // The last connection error ioredis reported, the most telling cause of a failed open.
  let lastError: Error | undefined;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: commandTimeoutMs,
    // Commands wait through a reconnection, bounded by commandTimeout (armed when a command is
    // issued, queued or not); before the first connection the retry strategy below ends it at once.
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    // Before the first success, a failure is final (the caller gets an error, not a retry loop);
    // afterwards, a restarted server is reconnected to with a capped backoff.
    retryStrategy: (times) => (connected ? Math.min(times * 100, MAX_RECONNECT_DELAY_MS) : null),
  });
  // One warning per outage, not one per reconnection attempt.
  let warned = false;
  redis.on('error', (error: Error) => {
    lastError = error;
    if (connected && !warned) getLogger().warn({ err: error, location }, 'redis ledger connection lost; reconnecting');
    warned = connected;
  });
  redis.on('ready', () => {
    warned = false;
  });
  let timer: NodeJS.Timeout | undefined;
  let badDb: Error | undefined;
  try {
    await Promise.race([
      connectAndSelect(redis).catch((error: Error) => {
        if (!/DB index/i.test(error.message)) throw error;
        badDb = error;
      }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    connected = true;
  } catch (error) {
    redis.disconnect();
    throw unavailable(location, timeoutMs, lastError ?? error);
  } finally {
    clearTimeout(timer);
  }
  if (badDb) {
    redis.disconnect();
    throw new BatonError('INPUT_INVALID', `Redis at ${location} has no database ${redis.options.db}: ${badDb.message}`, {
      cause: badDb,
      details: { field: 'ledger', value: location },
    });
  }
  return redis;
}

/**
 * The URL with its password removed, for messages and `location`.
 * @example redactRedisUrl('redis://:s3cret@cache:6379/2') // 'redis://cache:6379/2'
 */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString();
  } catch {
    // Unparsable: drop the whole user-info part rather than risk printing a secret.
    return url.replace(/\/\/[^/]*@/, '//');
  }
}

/** Catches URLs ioredis would misread (a database "abc" becomes NaN) before any connection. */
function checkRedisUrl(url: string, location: string): void {
  const bad = (why: string): never => {
    throw new BatonError('INPUT_INVALID', `Invalid Redis URL ${location}: ${why} (use redis://[:PASSWORD@]HOST:PORT/DB)`, {
      details: { field: 'ledger', value: location },
    });
  };
  const parsed = URL.canParse(url) ? new URL(url) : bad('not a URL');
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') bad(`unknown scheme "${parsed.protocol}"`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) bad(`database "${db}" is not a number`);
}

/**
 * ioredis selects the URL's database on its own but only reports a failure as an event and then
 * carries on in DB 0, so the database is selected again here, where a failure can stop the open.
 */
async function connectAndSelect(redis: Redis): Promise<void> {
  await redis.connect();
  const db = redis.options.db ?? 0;
  if (db !== 0) await redis.select(db);
}

function unavailable(location: string, timeoutMs: number, cause: unknown): BatonError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const refusedPassword = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(reason);
  const message = refusedPassword
    ? `Redis ledger at ${location} refused the credentials (check the password in the URL): ${reason}`
    : `Cannot reach the Redis ledger at ${location} within ${timeoutMs} ms: ${reason}`;
  return new BatonError('LEDGER_UNAVAILABLE', message, { cause, details: { location, timeoutMs } });
}
