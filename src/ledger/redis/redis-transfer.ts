import { BatonError } from '../../errors/index.js';
import { redactLedgerLine } from '../redact-for-ledger.js';
import type { Dispatch, DispatchStatus, LedgerLine, TaskStatus } from '../types.js';
import { DISPATCH_STATUSES, RECORD_COLLECTIONS, TASK_STATUSES } from '../types.js';
import { listBreakers, loadClaims } from './redis-claims.js';
import type { Redis } from 'ioredis';
import { chunk, execAll, isOutOfMemory, memoryFigures, type RedisContext } from './redis-context.js';
import { currentTaskIds, loadDispatches, putDispatchesArgs } from './redis-dispatches.js';
import { loadRecords, recordWrite } from './redis-records.js';
import type { ScriptedPipeline } from './redis-scripts.js';
import { loadTasks, taskWrite } from './redis-tasks.js';
import { compareMembers, walkZset } from './walk-zset.js';
import {
  cleanAbandonedStaging,
  deleteKeys,
  ExpectedCounts,
  fixedLedgerKeys,
  isLedgerKey,
  scanKeys,
  stagingContext,
  switchToStaging,
} from './redis-staging.js';

/** Rows read per round trip while exporting. */
export const EXPORT_BATCH = 500;
/** Lines written per MULTI while importing: large enough to be fast, small enough to stay under the command timeout. */
export const IMPORT_BATCH = 2_000;
/** Staging builds before an import that keeps meeting concurrent writes gives up. */
const MAX_IMPORT_ROUNDS = 3;
/** Dispatches written per bulk script call (each call declares 5 keys per dispatch). */
const DISPATCHES_PER_CALL = 100;

/**
 * Streams every record in a stable order: tasks and records by id, dispatches by seq, breakers
 * by provider, claims by task id. Only ids are held in memory; rows are read in batches.
 */
export async function* exportLines(ctx: RedisContext): AsyncGenerator<LedgerLine> {
  const k = ctx.keys;
  const taskIds = (await ctx.redis.zrange(k.tasksAll, 0, -1)).sort(compareMembers);
  for (const ids of chunk(taskIds, EXPORT_BATCH)) {
    for (const task of await loadTasks(ctx, ids)) if (task) yield { kind: 'task', record: task };
  }
  for await (const entries of walkZset(ctx.redis, k.dispatchesAll, { order: 'asc', batch: EXPORT_BATCH })) {
    const ids = entries.map((e) => e.member);
    for (const d of await loadDispatches(ctx, ids)) if (d) yield { kind: 'dispatch', record: d };
  }
  for (const breaker of await listBreakers(ctx)) yield { kind: 'breaker', record: breaker };
  const claimed = (await ctx.redis.smembers(k.claims)).sort(compareMembers);
  for (const ids of chunk(claimed, EXPORT_BATCH)) {
    for (const claim of await loadClaims(ctx, ids)) if (claim) yield { kind: 'claim', record: claim };
  }
  for (const collection of RECORD_COLLECTIONS) {
    const ids = (await ctx.redis.zrange(k.recordsAll(collection), 0, -1)).sort(compareMembers);
    for (const batch of chunk(ids, EXPORT_BATCH)) {
      for (const record of await loadRecords(ctx, collection, batch)) if (record) yield { kind: 'record', collection, record };
    }
  }
}

/**
 * All or nothing at any size: checks every line's shape first, then builds the whole resulting
 * ledger (the live one as exported, then the imported lines over it; existing ids are overwritten)
 * under a staging prefix next to the live keys, checks the staging counts, and switches with one
 * MULTI of DEL and RENAME (no command in it needs memory, so EXEC runs even at maxmemory). A failure
 * before the switch (out of memory, a lost connection) deletes the staging keys and leaves the live
 * ledger as it was. WATCH on a connection of its own makes the switch fail, and the import start
 * over, if another process wrote to the ledger meanwhile. See docs/ledger.md.
 */
export async function importLines(ctx: RedisContext, lines: readonly LedgerLine[]): Promise<number> {
  lines.forEach(checkLine);
  try {
    return await importChecked(ctx, lines.map(redactLedgerLine));
  } catch (error) {
    if (!isOutOfMemory(error)) throw error;
    const { max, used } = await memoryFigures(ctx);
    throw new BatonError(
      'LEDGER_FULL',
      `Redis at ${ctx.location} ran out of memory (maxmemory ${max}, used ${used}) while importing ${lines.length} lines; nothing was imported. ` +
        'An import builds a full second copy of the ledger before switching to it: raise maxmemory (CONFIG SET maxmemory) or free memory, then import again.',
      { cause: error, details: { location: ctx.location, maxmemory: max, usedMemory: used } },
    );
  }
}

async function importChecked(ctx: RedisContext, lines: readonly LedgerLine[]): Promise<number> {
  await cleanAbandonedStaging(ctx);
  const watcher = ctx.redis.duplicate();
  watcher.on('error', () => {
    // Reported through the failing command.
  });
  try {
    if (watcher.status === 'wait') await watcher.connect();
    for (let round = 1; round <= MAX_IMPORT_ROUNDS; round++) {
      if (await importOnce(ctx, watcher, lines)) return lines.length;
    }
  } finally {
    watcher.disconnect();
  }
  throw new BatonError(
    'LEDGER_CONFLICT',
    `Redis ledger at ${ctx.location} kept changing during the import (${MAX_IMPORT_ROUNDS} tries); nothing was imported. Stop the runs writing to it and import again.`,
    { details: { location: ctx.location } },
  );
}

/** One staging build and switch; false when another writer changed the live ledger meanwhile. */
async function importOnce(ctx: RedisContext, watcher: Redis, lines: readonly LedgerLine[]): Promise<boolean> {
  const staging = stagingContext(ctx);
  try {
    await watcher.watch(...fixedLedgerKeys(ctx));
    const live = await scanKeys(watcher, ctx.keys.prefix, (key) => isLedgerKey(ctx, key));
    for (const keys of chunk(live, EXPORT_BATCH)) await watcher.watch(...keys);

    const expected = new ExpectedCounts();
    const seq = await ctx.redis.get(ctx.keys.dispatchSeq);
    if (seq !== null) await staging.redis.set(staging.keys.dispatchSeq, seq);
    let batch: LedgerLine[] = [];
    for await (const line of exportLines(ctx)) {
      expected.add(line);
      batch.push(line);
      if (batch.length === IMPORT_BATCH) {
        await writeBatch(staging, batch);
        batch = [];
      }
    }
    await writeBatch(staging, batch);
    for (const part of chunk(lines, IMPORT_BATCH)) {
      for (const line of part) expected.add(line);
      await writeBatch(staging, part);
    }
    await expected.verify(staging);

    const again = await scanKeys(watcher, ctx.keys.prefix, (key) => isLedgerKey(ctx, key));
    if (again.length !== live.length || again.some((key, i) => key !== live[i])) {
      await watcher.unwatch();
      return false;
    }
    const built = await scanKeys(ctx.redis, staging.keys.prefix, () => true);
    return await switchToStaging(watcher, ctx, staging, live, built);
  } finally {
    await deleteKeys(ctx.redis, staging.keys.prefix);
  }
}

/** Writes one batch of lines in one MULTI. */
async function writeBatch(ctx: RedisContext, batch: readonly LedgerLine[]): Promise<void> {
  if (batch.length === 0) return;
  // Read before the MULTI: a script may only touch the old task's keys if they are declared.
  const previous = await currentTaskIds(
    ctx,
    batch.flatMap((line) => (line.kind === 'dispatch' ? [line.record.id] : [])),
  );
  const multi = ctx.redis.multi() as ScriptedPipeline;
  let dispatches: Dispatch[] = [];
  const flush = () => {
    if (dispatches.length > 0) multi.batonPutDispatches(...putDispatchesArgs(ctx, dispatches, previous));
    dispatches = [];
  };
  for (const line of batch) {
    // Runs of dispatches (the bulk of any real ledger) go through the bulk script, in order.
    if (line.kind === 'dispatch') {
      dispatches.push(line.record);
      if (dispatches.length === DISPATCHES_PER_CALL) flush();
      continue;
    }
    flush();
    queueLine(ctx, multi, line);
  }
  flush();
  await execAll(multi);
}

function queueLine(ctx: RedisContext, multi: ScriptedPipeline, line: Exclude<LedgerLine, { kind: 'dispatch' }>): void {
  const k = ctx.keys;
  switch (line.kind) {
    case 'task':
      multi.batonWrite(...taskWrite(ctx, line.record, 'put'));
      return;
    case 'breaker':
      multi.hset(k.breakers, line.record.provider, JSON.stringify(line.record));
      multi.hset(k.breakerGenerations, line.record.provider, line.record.generation);
      return;
    case 'claim': {
      const ttl = Math.ceil(line.record.leaseUntil - ctx.now());
      if (ttl <= 0) return;
      const key = k.claim(line.record.taskId);
      multi.del(key);
      multi.hset(key, 'owner', line.record.owner, 'until', line.record.leaseUntil);
      multi.pexpire(key, ttl);
      multi.sadd(k.claims, line.record.taskId);
      return;
    }
    case 'record':
      multi.batonWrite(...recordWrite(ctx, line.collection, line.record, 'put'));
      return;
  }
}

/** The fields a key name or an index score is built from; the rest is stored as given. */
function checkLine(line: LedgerLine, index: number): void {
  const bad = (field: string, value: unknown): never => {
    throw new BatonError('IMPORT_INVALID', `Line ${index + 1}: invalid ${field} ${JSON.stringify(value)}`, {
      details: { line: index + 1, field, value },
    });
  };
  const r = (line as { record?: unknown }).record as Record<string, unknown> | undefined;
  if (typeof r !== 'object' || r === null) bad('record', r);
  const rec = r as Record<string, unknown>;
  const text = (field: string) => {
    if (typeof rec[field] !== 'string' || rec[field] === '') bad(field, rec[field]);
  };
  const num = (field: string) => {
    if (typeof rec[field] !== 'number' || !Number.isFinite(rec[field])) bad(field, rec[field]);
  };
  switch (line.kind) {
    case 'task':
      text('id');
      num('createdAt');
      if (!TASK_STATUSES.includes(rec.status as TaskStatus)) bad('status', rec.status);
      return;
    case 'dispatch':
      text('id');
      text('taskId');
      if (!Number.isSafeInteger(rec.seq) || (rec.seq as number) <= 0) bad('seq', rec.seq);
      if (!DISPATCH_STATUSES.includes(rec.status as DispatchStatus)) bad('status', rec.status);
      return;
    case 'breaker':
      text('provider');
      if (!Number.isSafeInteger(rec.generation)) bad('generation', rec.generation);
      return;
    case 'claim':
      text('taskId');
      text('owner');
      num('leaseUntil');
      return;
    case 'record':
      if (!RECORD_COLLECTIONS.includes(line.collection)) bad('collection', line.collection);
      text('id');
      num('updatedAt');
      return;
    default:
      bad('kind', (line as { kind?: unknown }).kind);
  }
}
