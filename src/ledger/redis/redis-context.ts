import { BatonError, isBatonError } from '../../errors/index.js';
import type { RedisKeys } from './redis-keys.js';
import type { ScriptedRedis } from './redis-scripts.js';

/** What every Redis ledger operation needs: the connection, key names, clock and location. */
export interface RedisContext {
  readonly redis: ScriptedRedis;
  readonly keys: RedisKeys;
  readonly now: () => number;
  /** The URL without its password, for messages. */
  readonly location: string;
}

/** How many times a read-modify-write retries when another writer changed the row under it. */
export const MAX_CAS_ATTEMPTS = 20;
/** Cap of the random pause between two attempts, which breaks up writers retrying in lockstep. */
const MAX_CAS_BACKOFF_MS = 20;

/**
 * Runs a read-modify-write until its compare-and-set lands. `tryOnce` returns `{ value }` when it
 * wrote (or decided not to), undefined when another writer got in first. Throws LEDGER_CONFLICT
 * after MAX_CAS_ATTEMPTS.
 */
export async function retryCompareAndSet<T>(kind: string, id: string, tryOnce: () => Promise<{ value: T } | undefined>): Promise<T> {
  for (let attempt = 1; attempt <= MAX_CAS_ATTEMPTS; attempt += 1) {
    const result = await tryOnce();
    if (result) return result.value;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, MAX_CAS_BACKOFF_MS)));
  }
  throw new BatonError('LEDGER_CONFLICT', `${kind} "${id}" kept changing under ${MAX_CAS_ATTEMPTS} update attempts`, {
    details: { kind, id },
  });
}

/**
 * Turns a failure of a Redis call into the ledger's error: BatonErrors pass through, a WRONGTYPE
 * reply means a foreign key sits where the ledger expects its own (LEDGER_CORRUPT), and anything
 * else (refused, closed, timed out, NOAUTH, OOM...) means the ledger is unavailable.
 */
export function toLedgerError(error: unknown, location: string, operation: string): BatonError {
  if (isBatonError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isOutOfMemory(error)) {
    return new BatonError(
      'LEDGER_FULL',
      `Redis ledger at ${location} is out of memory (used memory is above its maxmemory) during ${operation}; the write was refused. Raise maxmemory (CONFIG SET maxmemory, or maxmemory in redis.conf) or free memory, then try again.`,
      { cause: error, details: { location, operation } },
    );
  }
  if (message.startsWith('WRONGTYPE')) {
    return new BatonError('LEDGER_CORRUPT', `Redis ledger at ${location}: ${operation} met a key of the wrong type (${message})`, {
      cause: error,
      details: { location, operation },
    });
  }
  return new BatonError('LEDGER_UNAVAILABLE', `Redis ledger at ${location} is unavailable (${operation}): ${message}`, {
    cause: error,
    details: { location, operation },
  });
}

/**
 * Whether Redis refused a write for lack of memory: "OOM command not allowed when used memory >
 * 'maxmemory'", directly or as the cause of an EXECABORT (ioredis keeps a transaction's queueing
 * errors in `previousErrors`).
 */
export function isOutOfMemory(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (/^OOM\b|OOM command not allowed/.test(error.message)) return true;
  const previous = (error as Error & { previousErrors?: unknown[] }).previousErrors;
  return Array.isArray(previous) && previous.some((e) => isOutOfMemory(e));
}

/** maxmemory and used memory as Redis words them (INFO memory), for messages; '?' when unknown. */
export async function memoryFigures(ctx: RedisContext): Promise<{ max: string; used: string }> {
  try {
    const info = await ctx.redis.info('memory');
    const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
    return { max: field('maxmemory_human') ?? field('maxmemory') ?? '?', used: field('used_memory_human') ?? field('used_memory') ?? '?' };
  } catch {
    return { max: '?', used: '?' };
  }
}

/** Splits a list into chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs a pipeline and returns its replies, throwing the first command error. */
export async function execAll(pipeline: { exec(): Promise<[Error | null, unknown][] | null> }): Promise<unknown[]> {
  const results = await pipeline.exec();
  if (results === null) throw new Error('Redis transaction was aborted');
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/** The given fields of each hash, in one round trip; null where a hash or field is missing. */
export async function readHashes(ctx: RedisContext, keys: readonly string[], fields: readonly string[]): Promise<(string | null)[][]> {
  if (keys.length === 0) return [];
  const flat = (await ctx.redis.batonReadHashes(keys.length, ...keys, ...fields)) as (string | null)[];
  return keys.map((_, i) => flat.slice(i * fields.length, (i + 1) * fields.length));
}
