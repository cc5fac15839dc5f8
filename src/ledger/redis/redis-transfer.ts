import { BatonError } from '../../errors/index.js';
import type { Dispatch, DispatchStatus, LedgerLine, TaskStatus } from '../types.js';
import { RECORD_COLLECTIONS, TASK_STATUSES } from '../types.js';
import { listBreakers, loadClaims } from './redis-claims.js';
import { chunk, execAll, type RedisContext } from './redis-context.js';
import { currentTaskIds, DISPATCH_STATUSES, loadDispatches, putDispatchesArgs } from './redis-dispatches.js';
import { loadRecords, recordWrite } from './redis-records.js';
import type { ScriptedPipeline } from './redis-scripts.js';
import { loadTasks, taskWrite } from './redis-tasks.js';
import { compareMembers, walkZset } from './walk-zset.js';

/** Rows read per round trip while exporting. */
export const EXPORT_BATCH = 500;
/** Lines written per MULTI while importing: large enough to be fast, small enough to stay under the command timeout. */
export const IMPORT_BATCH = 2_000;
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
    for (const d of await loadDispatches(ctx, entries.map((e) => e.member))) if (d) yield { kind: 'dispatch', record: d };
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
 * Checks every line's shape first (nothing is written if one is bad), then writes one MULTI per
 * batch. Existing ids are overwritten; the dispatch counter moves past the highest imported seq.
 * A dispatch moved to another task by a concurrent import between the read of its task id and
 * the MULTI may stay listed under its old task too (imports of one id are not expected to race).
 */
export async function importLines(ctx: RedisContext, lines: readonly LedgerLine[]): Promise<number> {
  lines.forEach(checkLine);
  for (const batch of chunk(lines, IMPORT_BATCH)) {
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
  return lines.length;
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
