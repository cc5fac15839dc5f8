import { applyRecordPatch, materializeRecord, pageSize, stripUndefined } from '../defaults.js';
import { checkCollection, conflict, notFound } from '../ledger-errors.js';
import type { LedgerRecord, NewRecord, Page, RecordCollection, RecordPatch, RecordQuery } from '../types.js';
import { type RedisContext, readHashes, retryCompareAndSet } from './redis-context.js';
import { parseStored } from './redis-schemas.js';
import { type IndexOp, type WriteMode, writeArgs } from './redis-scripts.js';
import { collectPage, cursorEntry, walkZset } from './walk-zset.js';

/**
 * Script arguments that store a record and index it by updatedAt, status and taskId. `previous`
 * (when known) lets an update drop the record from the status/task indexes it left.
 */
export function recordWrite(
  ctx: RedisContext,
  collection: RecordCollection,
  r: LedgerRecord,
  mode: WriteMode,
  expected = '',
  previous?: LedgerRecord,
) {
  const k = ctx.keys;
  const member = r.id;
  const score = r.updatedAt;
  const ops: IndexOp[] = [{ key: k.recordsAll(collection), op: 'zadd', score, member }];
  if (previous?.status !== undefined && previous.status !== r.status) {
    ops.push({ key: k.recordsByStatus(collection, previous.status), op: 'zrem', score, member });
  }
  if (previous?.taskId !== undefined && previous.taskId !== r.taskId) {
    ops.push({ key: k.recordsByTask(collection, previous.taskId), op: 'zrem', score, member });
  }
  if (r.status !== undefined) ops.push({ key: k.recordsByStatus(collection, r.status), op: 'zadd', score, member });
  if (r.taskId !== undefined) ops.push({ key: k.recordsByTask(collection, r.taskId), op: 'zadd', score, member });
  const fields = stripUndefined({ v: JSON.stringify(r), status: r.status, taskId: r.taskId }) as Record<string, string>;
  return writeArgs(k.record(collection, r.id), mode, expected, fields, ops);
}

export async function createRecord<T>(ctx: RedisContext, collection: RecordCollection, input: NewRecord<T>): Promise<LedgerRecord<T>> {
  checkCollection(collection);
  const record = materializeRecord(input, collection, ctx.now());
  const written = await ctx.redis.batonWrite(...recordWrite(ctx, collection, record as LedgerRecord, 'create'));
  if (written !== 1) throw conflict(collection, record.id);
  return record;
}

export async function updateRecord<T>(
  ctx: RedisContext,
  collection: RecordCollection,
  id: string,
  patch: RecordPatch<T>,
): Promise<LedgerRecord<T>> {
  checkCollection(collection);
  const key = ctx.keys.record(collection, id);
  return retryCompareAndSet(collection, id, async () => {
    const raw = await ctx.redis.hget(key, 'v');
    if (raw === null) throw notFound(collection, id);
    const current = parseStored('record', key, raw);
    const next = applyRecordPatch(current, patch, ctx.now());
    const written = await ctx.redis.batonWrite(...recordWrite(ctx, collection, next, 'cas', raw, current));
    return written === 1 ? { value: next as LedgerRecord<T> } : undefined;
  });
}

export async function getRecord<T>(ctx: RedisContext, collection: RecordCollection, id: string): Promise<LedgerRecord<T> | undefined> {
  checkCollection(collection);
  return (await loadRecords(ctx, collection, [id]))[0] as LedgerRecord<T> | undefined;
}

export async function loadRecords(
  ctx: RedisContext,
  collection: RecordCollection,
  ids: readonly string[],
): Promise<(LedgerRecord | undefined)[]> {
  const keys = ids.map((id) => ctx.keys.record(collection, id));
  const rows = await readHashes(ctx, keys, ['v']);
  return rows.map(([raw], i) => (typeof raw === 'string' ? parseStored('record', keys[i] as string, raw) : undefined));
}

/** Newest first by (updatedAt, id), walking the narrowest index and filtering the rest. */
export async function listRecords<T>(
  ctx: RedisContext,
  collection: RecordCollection,
  query: RecordQuery = {},
): Promise<Page<LedgerRecord<T>>> {
  checkCollection(collection);
  const limit = pageSize(query.limit);
  const k = ctx.keys;
  const key =
    query.taskId !== undefined
      ? k.recordsByTask(collection, query.taskId)
      : query.status !== undefined
        ? k.recordsByStatus(collection, query.status)
        : k.recordsAll(collection);
  const walk = walkZset(ctx.redis, key, {
    order: 'desc',
    after: cursorEntry(query.cursor),
    min: query.since,
    batch: Math.min(limit + 1, 500),
  });
  const page = await collectPage(walk, {
    limit,
    load: (ids) => loadRecords(ctx, collection, ids),
    // Also guards against stale index members left by an import that overwrote a record.
    accept: (r) =>
      (query.status === undefined || r.status === query.status) &&
      (query.taskId === undefined || r.taskId === query.taskId) &&
      (query.since === undefined || r.updatedAt >= query.since),
    entryOf: (r) => ({ score: r.updatedAt, member: r.id }),
  });
  return page as Page<LedgerRecord<T>>;
}
