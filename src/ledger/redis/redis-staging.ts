import type { Redis } from 'ioredis';
import { BatonError } from '../../errors/index.js';
import { DISPATCH_STATUSES, type LedgerLine, RECORD_COLLECTIONS, TASK_STATUSES } from '../types.js';
import { chunk, type RedisContext } from './redis-context.js';
import { createRedisKeys } from './redis-keys.js';

/**
 * Where an import builds the ledger before switching: `baton:<namespace>:~import~<ms>-<random>:`.
 * No ledger key starts with `~`, so staging keys never mix with live ones.
 */
const STAGING_MARK = '~import~';
/** A staging prefix older than this belongs to an import that died; the next import deletes it. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;
const SCAN_COUNT = 1_000;
/** The key families of one namespace's ledger (redis-keys.ts); anything else there is not ours. */
const LEDGER_KEY =
  /^(task:|tasks:|dispatch:|dispatch_seq$|dispatches$|dispatches:|claim:|claims$|breakers$|breakers:generation$|rec:|recs:)/;

/** A context whose keys live under a fresh staging prefix of the same namespace. */
export function stagingContext(ctx: RedisContext): RedisContext {
  const namespace = ctx.keys.prefix.slice('baton:'.length, -1);
  const id = `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
  return { ...ctx, keys: createRedisKeys(`${namespace}:${STAGING_MARK}${id}`) };
}

/** Whether a key under the namespace belongs to the live ledger (not staging, not another tool's). */
export function isLedgerKey(ctx: RedisContext, key: string): boolean {
  if (!key.startsWith(ctx.keys.prefix)) return false;
  return LEDGER_KEY.test(key.slice(ctx.keys.prefix.length));
}

/** Index keys every ledger write touches one of: watched, so a new row made meanwhile is seen. */
export function fixedLedgerKeys(ctx: RedisContext): string[] {
  const k = ctx.keys;
  return [
    k.tasksAll,
    k.tasksCompleted,
    ...TASK_STATUSES.map((s) => k.tasksByStatus(s)),
    k.dispatchSeq,
    k.dispatchesAll,
    ...DISPATCH_STATUSES.map((s) => k.dispatchesByStatus(s)),
    k.claims,
    k.breakers,
    k.breakerGenerations,
    ...RECORD_COLLECTIONS.map((c) => k.recordsAll(c)),
  ];
}

/** Every key starting with `prefix` that passes `keep`, sorted, without SCAN's duplicates. */
export async function scanKeys(client: Redis, prefix: string, keep: (key: string) => boolean): Promise<string[]> {
  const found = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', SCAN_COUNT);
    cursor = next;
    for (const key of keys) if (keep(key)) found.add(key);
  } while (cursor !== '0');
  return [...found].sort();
}

/** Deletes every key under `prefix` (DEL needs no memory, so this works at maxmemory too). */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  const keys = await scanKeys(client, prefix, () => true);
  for (const part of chunk(keys, SCAN_COUNT)) await client.del(...part);
}

/** Deletes staging keys left by imports that died more than an hour ago. */
export async function cleanAbandonedStaging(ctx: RedisContext): Promise<void> {
  const root = `${ctx.keys.prefix}${STAGING_MARK}`;
  const prefixes = new Set<string>();
  for (const key of await scanKeys(ctx.redis, root, () => true)) {
    const id = key.slice(root.length, key.indexOf(':', root.length));
    if (Number(id.split('-')[0]) < ctx.now() - ABANDONED_AFTER_MS) prefixes.add(`${root}${id}:`);
  }
  for (const prefix of prefixes) await deleteKeys(ctx.redis, prefix);
}

/**
 * One MULTI on the watching connection: DEL every live ledger key the staging build has no
 * counterpart for (an index left empty, say), then RENAME each staging key onto its live name.
 * RENAME keeps a claim's time-to-live. Neither command is refused at maxmemory. Returns false
 * when a watched key changed (EXEC answers null and runs nothing).
 */
export async function switchToStaging(
  watcher: Redis,
  ctx: RedisContext,
  staging: RedisContext,
  live: readonly string[],
  built: readonly string[],
): Promise<boolean> {
  const target = (key: string) => ctx.keys.prefix + key.slice(staging.keys.prefix.length);
  const replaced = new Set(built.map(target));
  const multi = watcher.multi();
  for (const key of live) if (!replaced.has(key)) multi.del(key);
  for (const key of built) multi.rename(key, target(key));
  const results = await multi.exec();
  if (results === null) return false;
  for (const [error] of results) {
    // A claim whose lease ran out between the scan and the switch is gone: that is its meaning.
    if (error && !/no such key/i.test(error.message)) throw error;
  }
  return true;
}

/** Counts the distinct rows the staging build must hold, to check it before switching. */
export class ExpectedCounts {
  /** Ids seen per row kind, named as the check's message names them (`tasks`, `audit records`). */
  private readonly ids = new Map<string, Set<string>>();

  add(line: LedgerLine): void {
    // Claims: a lease may lapse while the import runs, so their number is not checked.
    if (line.kind === 'claim') return;
    const what = line.kind === 'record' ? `${line.collection} records` : PLURAL[line.kind];
    const id = line.kind === 'breaker' ? line.record.provider : line.record.id;
    this.ids.set(what, (this.ids.get(what) ?? new Set<string>()).add(id));
  }

  async verify(staging: RedisContext): Promise<void> {
    const k = staging.keys;
    const checks: [string, Promise<number>][] = [
      ['tasks', staging.redis.zcard(k.tasksAll)],
      ['dispatches', staging.redis.zcard(k.dispatchesAll)],
      ['breakers', staging.redis.hlen(k.breakers)],
      ...RECORD_COLLECTIONS.map((c): [string, Promise<number>] => [`${c} records`, staging.redis.zcard(k.recordsAll(c))]),
    ];
    for (const [what, found] of checks) {
      const count = await found;
      const expected = this.ids.get(what)?.size ?? 0;
      if (count !== expected) {
        throw new BatonError(
          'LEDGER_CORRUPT',
          `Import check failed before switching: expected ${expected} ${what} in the staged ledger, found ${count}; nothing was imported`,
          { details: { what, expected, found: count } },
        );
      }
    }
  }
}

const PLURAL = { task: 'tasks', dispatch: 'dispatches', breaker: 'breakers' } as const;

/** Escapes SCAN MATCH's glob characters so a namespace is matched literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
