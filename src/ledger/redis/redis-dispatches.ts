import { isBatonError } from '../../errors/index.js';
import { materializeDispatch, stripUndefined } from '../defaults.js';
import { newId } from '../ids.js';
import { conflict, notFound } from '../ledger-errors.js';
import type { Dispatch, DispatchPatch, DispatchQuery, DispatchStatus, NewDispatch, Page } from '../types.js';
import { type RedisContext, readHashes, retryCompareAndSet } from './redis-context.js';
import { parseSeq, parseStored } from './redis-schemas.js';
import { type IndexOp, type WriteMode, writeArgs } from './redis-scripts.js';
import { collectPage, cursorEntry, pageSize, walkZset } from './walk-zset.js';

export const DISPATCH_STATUSES: readonly DispatchStatus[] = ['running', 'completed', 'failed', 'interrupted'];

/** The stored JSON leaves seq out: the append script assigns it and keeps it in its own field. */
function stored(dispatch: Dispatch): string {
  const { seq: _seq, ...rest } = dispatch;
  return JSON.stringify(rest);
}

/** Arguments of the bulk script that imports dispatches (overwriting ids that exist). */
export function putDispatchesArgs(ctx: RedisContext, batch: readonly Dispatch[]): [number, ...(string | number)[]] {
  const k = ctx.keys;
  const keys = [k.dispatchSeq, k.dispatchesAll, ...DISPATCH_STATUSES.map((s) => k.dispatchesByStatus(s))];
  const args: (string | number)[] = [];
  for (const d of batch) {
    keys.push(k.dispatch(d.id), k.dispatchesByTask(d.taskId));
    args.push(stored(d), d.seq, d.taskId, d.status, d.id);
  }
  return [keys.length, ...keys, ...args];
}

/** Script arguments that store a dispatch whose seq is known and index it by that seq. */
export function dispatchWrite(ctx: RedisContext, d: Dispatch, mode: WriteMode, expected = '') {
  const k = ctx.keys;
  const ops: IndexOp[] = [
    { key: k.dispatchesAll, op: 'zadd', score: d.seq, member: d.id },
    { key: k.dispatchesByTask(d.taskId), op: 'zadd', score: d.seq, member: d.id },
    ...DISPATCH_STATUSES.map((s): IndexOp => ({ key: k.dispatchesByStatus(s), op: s === d.status ? 'zadd' : 'zrem', score: d.seq, member: d.id })),
  ];
  const fields = { v: stored(d), seq: d.seq, taskId: d.taskId, status: d.status };
  return writeArgs(k.dispatch(d.id), mode, expected, fields, ops);
}

/** One round trip: the script takes the seq, stores the dispatch and indexes it. */
export async function appendDispatch(ctx: RedisContext, input: NewDispatch): Promise<Dispatch> {
  const draft = materializeDispatch({ ...input, id: input.id ?? newId('d') }, 0, ctx.now());
  const k = ctx.keys;
  const seq = await ctx.redis.batonAppend(
    5,
    k.dispatchSeq,
    k.dispatch(draft.id),
    k.dispatchesAll,
    k.dispatchesByTask(draft.taskId),
    k.dispatchesByStatus(draft.status),
    stored(draft),
    draft.taskId,
    draft.status,
    draft.id,
  );
  if (seq === -1) throw conflict('dispatch', draft.id);
  return { ...draft, seq: Number(seq) };
}

/**
 * Applies `change` with compare-and-set, re-reading when another writer got in first. `change`
 * returns undefined to leave the dispatch alone. Throws NOT_FOUND for unknown ids.
 */
async function changeDispatch(
  ctx: RedisContext,
  id: string,
  change: (current: Dispatch) => Dispatch | undefined,
): Promise<Dispatch | undefined> {
  const key = ctx.keys.dispatch(id);
  return retryCompareAndSet('dispatch', id, async () => {
    const [raw, seq] = await ctx.redis.hmget(key, 'v', 'seq');
    if (!raw) throw notFound('dispatch', id);
    const next = change({ ...parseStored('dispatch', key, raw), seq: parseSeq(key, seq ?? null) } as Dispatch);
    if (!next) return { value: undefined };
    return (await ctx.redis.batonWrite(...dispatchWrite(ctx, next, 'cas', raw))) === 1 ? { value: next } : undefined;
  });
}

export async function updateDispatch(ctx: RedisContext, id: string, patch: DispatchPatch): Promise<Dispatch> {
  const next = await changeDispatch(ctx, id, (d) => ({ ...d, ...stripUndefined(patch), id: d.id, seq: d.seq, taskId: d.taskId }));
  return next as Dispatch;
}

export async function getDispatch(ctx: RedisContext, id: string): Promise<Dispatch | undefined> {
  return (await loadDispatches(ctx, [id]))[0];
}

export async function loadDispatches(ctx: RedisContext, ids: readonly string[]): Promise<(Dispatch | undefined)[]> {
  const keys = ids.map((id) => ctx.keys.dispatch(id));
  const rows = await readHashes(ctx, keys, ['v', 'seq']);
  return rows.map(([raw, seq], i) => {
    if (typeof raw !== 'string') return undefined;
    const key = keys[i] as string;
    return { ...parseStored('dispatch', key, raw), seq: parseSeq(key, seq ?? null) } as Dispatch;
  });
}

export async function lastDispatches(ctx: RedisContext, taskId: string, limit: number): Promise<Dispatch[]> {
  if (limit <= 0) return [];
  const ids = await ctx.redis.zrevrange(ctx.keys.dispatchesByTask(taskId), 0, limit - 1);
  return (await loadDispatches(ctx, ids)).filter((d): d is Dispatch => d?.taskId === taskId);
}

export async function recentDispatches(ctx: RedisContext, limit: number): Promise<Dispatch[]> {
  if (limit <= 0) return [];
  const ids = await ctx.redis.zrevrange(ctx.keys.dispatchesAll, 0, limit - 1);
  return (await loadDispatches(ctx, ids)).filter((d): d is Dispatch => d !== undefined);
}

/** Newest first by seq, walking the narrowest index and filtering the rest after loading. */
export async function listDispatches(ctx: RedisContext, query: DispatchQuery = {}): Promise<Page<Dispatch>> {
  const limit = pageSize(query.limit);
  const k = ctx.keys;
  const key =
    query.taskId !== undefined
      ? k.dispatchesByTask(query.taskId)
      : query.status !== undefined
        ? k.dispatchesByStatus(query.status)
        : k.dispatchesAll;
  const walk = walkZset(ctx.redis, key, { order: 'desc', after: cursorEntry(query.cursor), batch: Math.min(limit + 1, 500) });
  return collectPage(walk, {
    limit,
    load: (ids) => loadDispatches(ctx, ids),
    accept: (d) => (query.taskId === undefined || d.taskId === query.taskId) && (query.status === undefined || d.status === query.status),
    entryOf: (d) => ({ score: d.seq, member: d.id }),
  });
}

export async function countDispatches(ctx: RedisContext): Promise<number> {
  return ctx.redis.zcard(ctx.keys.dispatchesAll);
}

/** Each running dispatch is moved by compare-and-set, so one finished meanwhile stays finished. */
export async function markInterrupted(ctx: RedisContext, filter: { taskId?: string } = {}): Promise<Dispatch[]> {
  const ids = await ctx.redis.zrange(ctx.keys.dispatchesByStatus('running'), 0, -1);
  const running = (await loadDispatches(ctx, ids)).filter(
    (d): d is Dispatch => d?.status === 'running' && (filter.taskId === undefined || d.taskId === filter.taskId),
  );
  const changed: Dispatch[] = [];
  for (const d of running) {
    const now = ctx.now();
    const next = await changeDispatch(ctx, d.id, (current) =>
      current.status === 'running'
        ? { ...current, status: 'interrupted', outcome: 'interrupted', finishedAt: now, durationMs: now - current.startedAt }
        : undefined,
    ).catch((error: unknown) => {
      // Deleted meanwhile (an import replaced it): nothing left to interrupt.
      if (isBatonError(error, 'NOT_FOUND')) return undefined;
      throw error;
    });
    if (next) changed.push(next);
  }
  return changed;
}
