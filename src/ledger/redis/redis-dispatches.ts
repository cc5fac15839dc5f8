import { isBatonError } from '../../errors/index.js';
import { applyDispatchPatch, materializeDispatch, pageSize } from '../defaults.js';
import { conflict, notFound } from '../ledger-errors.js';
import {
  type Dispatch,
  type DispatchPatch,
  type DispatchQuery,
  DISPATCH_STATUSES,
  type NewAttemptDispatch,
  type NewDispatch,
  type Page,
} from '../types.js';
import { type RedisContext, readHashes, retryCompareAndSet } from './redis-context.js';
import { parseSeq, parseStored } from './redis-schemas.js';
import { type IndexOp, type WriteMode, writeArgs } from './redis-scripts.js';
import { collectPage, cursorEntry, walkZset } from './walk-zset.js';

/** The stored JSON leaves seq out: the append script assigns it and keeps it in its own field. */
function stored(dispatch: Dispatch): string {
  const { seq: _seq, ...rest } = dispatch;
  return JSON.stringify(rest);
}

/**
 * Arguments of the bulk script that imports dispatches (overwriting ids that exist). `previous`
 * maps the ids that already exist to their current task id, so a dispatch moved to another task
 * can leave the old task's indexes; it is updated with this batch's task ids, for the calls
 * queued after this one in the same MULTI.
 */
export function putDispatchesArgs(
  ctx: RedisContext,
  batch: readonly Dispatch[],
  previous: Map<string, string>,
): [number, ...(string | number)[]] {
  const k = ctx.keys;
  const keys = [k.dispatchSeq, k.dispatchesAll, ...DISPATCH_STATUSES.map((s) => k.dispatchesByStatus(s))];
  const movedKeys: string[] = [];
  const args: (string | number)[] = [];
  const firstMovedKey = keys.length + 3 * batch.length + 1;
  for (const d of batch) {
    keys.push(k.dispatch(d.id), k.dispatchesByTask(d.taskId), k.dispatchesJsonByTask(d.taskId));
    const before = previous.get(d.id);
    let oldKeysAt = 0;
    if (before !== undefined && before !== d.taskId) {
      oldKeysAt = firstMovedKey + movedKeys.length;
      movedKeys.push(k.dispatchesByTask(before), k.dispatchesJsonByTask(before));
    }
    args.push(stored(d), d.seq, d.taskId, d.status, d.id, before ?? '', oldKeysAt);
    previous.set(d.id, d.taskId);
  }
  keys.push(...movedKeys);
  return [keys.length, ...keys, ...args];
}

/** The current task id of each of `ids` that exists, in one round trip. */
export async function currentTaskIds(ctx: RedisContext, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const keys = ids.map((id) => ctx.keys.dispatch(id));
  const flat = (await ctx.redis.batonReadPresent(keys.length, ...keys, 'taskId')) as (number | string)[];
  for (let i = 0; i < flat.length; i += 2) out.set(ids[(flat[i] as number) - 1] as string, String(flat[i + 1]));
  return out;
}

/**
 * Script arguments that store a dispatch whose seq is known and index it by that seq, including
 * the copy of its JSON in its task's hash, so both copies change in one atomic step.
 */
export function dispatchWrite(ctx: RedisContext, d: Dispatch, mode: WriteMode, expected = '') {
  const k = ctx.keys;
  const json = stored(d);
  const ops: IndexOp[] = [
    { key: k.dispatchesAll, op: 'zadd', score: d.seq, member: d.id },
    { key: k.dispatchesByTask(d.taskId), op: 'zadd', score: d.seq, member: d.id },
    { key: k.dispatchesJsonByTask(d.taskId), op: 'hset', field: d.id, value: json },
    ...DISPATCH_STATUSES.map((s): IndexOp => ({
      key: k.dispatchesByStatus(s),
      op: s === d.status ? 'zadd' : 'zrem',
      score: d.seq,
      member: d.id,
    })),
  ];
  const fields = { v: json, seq: d.seq, taskId: d.taskId, status: d.status };
  return writeArgs(k.dispatch(d.id), mode, expected, fields, ops);
}

/** The key count and KEYS both append scripts take: the seq counter, the record and its indexes. */
function appendKeys(ctx: RedisContext, draft: Dispatch): [6, string, string, string, string, string, string] {
  const k = ctx.keys;
  return [
    6,
    k.dispatchSeq,
    k.dispatch(draft.id),
    k.dispatchesJsonByTask(draft.taskId),
    k.dispatchesAll,
    k.dispatchesByTask(draft.taskId),
    k.dispatchesByStatus(draft.status),
  ];
}

/** One round trip: the script takes the seq, stores the dispatch and indexes it. */
export async function appendDispatch(ctx: RedisContext, input: NewDispatch): Promise<Dispatch> {
  const draft = materializeDispatch(input, 0, ctx.now());
  const seq = await ctx.redis.batonAppend(...appendKeys(ctx, draft), stored(draft), draft.taskId, draft.status, draft.id);
  if (seq === -1) throw conflict('dispatch', draft.id);
  draft.seq = Number(seq);
  return draft;
}

/** One round trip: the script numbers the attempt, takes the seq, stores and indexes the dispatch. */
export async function appendNextAttempt(ctx: RedisContext, input: NewAttemptDispatch): Promise<Dispatch> {
  const draft = materializeDispatch({ ...input, attempt: 0 }, 0, ctx.now());
  const { seq: _seq, attempt: _attempt, ...rest } = draft;
  const [seq, attempt] = (await ctx.redis.batonAppendNextAttempt(
    ...appendKeys(ctx, draft),
    JSON.stringify(rest),
    draft.taskId,
    draft.status,
    draft.id,
  )) as [number, number];
  if (seq === -1) throw conflict('dispatch', draft.id);
  return { ...draft, seq: Number(seq), attempt: Number(attempt) };
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
    const next = change({ ...parseStored('dispatch', key, raw), seq: parseSeq(key, seq ?? null) });
    if (!next) return { value: undefined };
    return (await ctx.redis.batonWrite(...dispatchWrite(ctx, next, 'cas', raw))) === 1 ? { value: next } : undefined;
  });
}

export async function updateDispatch(ctx: RedisContext, id: string, patch: DispatchPatch): Promise<Dispatch> {
  return (await changeDispatch(ctx, id, (d) => applyDispatchPatch(d, patch))) as Dispatch;
}

export async function loadDispatches(ctx: RedisContext, ids: readonly string[]): Promise<(Dispatch | undefined)[]> {
  const keys = ids.map((id) => ctx.keys.dispatch(id));
  const rows = await readHashes(ctx, keys, ['v', 'seq']);
  return rows.map(([raw, seq], i) => {
    if (typeof raw !== 'string') return undefined;
    const key = keys[i] as string;
    const dispatch = parseStored('dispatch', key, raw) as Dispatch;
    dispatch.seq = parseSeq(key, seq ?? null);
    return dispatch;
  });
}

/**
 * One round trip: the script reads the task's zset and the JSON copies next to it. An id whose
 * copy is missing or names another task (written before the copies existed, or edited by hand)
 * is read from its own dispatch hash instead, which stays the record of truth.
 */
export async function lastDispatches(ctx: RedisContext, taskId: string, limit: number): Promise<Dispatch[]> {
  if (limit <= 0) return [];
  const zsetKey = ctx.keys.dispatchesByTask(taskId);
  const jsonKey = ctx.keys.dispatchesJsonByTask(taskId);
  const flat = (await ctx.redis.batonLastDispatches(2, zsetKey, jsonKey, limit)) as (string | null)[];
  const found: (Dispatch | undefined)[] = [];
  const missing: number[] = [];
  for (let i = 0; i < flat.length; i += 3) {
    const id = flat[i] as string;
    const raw = flat[i + 2];
    const dispatch = typeof raw === 'string' ? (parseStored('dispatch', jsonKey, raw, id) as Dispatch) : undefined;
    if (dispatch?.id === id && dispatch.taskId === taskId) {
      dispatch.seq = parseSeq(zsetKey, flat[i + 1] ?? null, id);
    } else {
      missing.push(found.length);
    }
    found.push(dispatch);
  }
  if (missing.length > 0) {
    const loaded = await loadDispatches(
      ctx,
      missing.map((at) => flat[3 * at] as string),
    );
    missing.forEach((at, j) => {
      const d = loaded[j];
      found[at] = d?.taskId === taskId ? d : undefined;
    });
  }
  return found.filter((d): d is Dispatch => d !== undefined);
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
