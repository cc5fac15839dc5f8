import { applyTaskPatch, encodeCursor, materializeTask, pageSize } from '../defaults.js';
import { conflict, notFound } from '../ledger-errors.js';
import type { NewTask, Page, Task, TaskPatch, TaskQuery, TaskStatus } from '../types.js';
import { TASK_STATUSES } from '../types.js';
import { execAll, type RedisContext, readHashes, retryCompareAndSet } from './redis-context.js';
import { parseStored } from './redis-schemas.js';
import { type IndexOp, type WriteMode, writeArgs } from './redis-scripts.js';
import { collectPage, compareMembers, cursorEntry, walkZset } from './walk-zset.js';

/** Script arguments that store a task and put it in exactly the indexes its status calls for. */
export function taskWrite(ctx: RedisContext, task: Task, mode: WriteMode, expected = '') {
  const k = ctx.keys;
  const member = task.id;
  const ops: IndexOp[] = [
    { key: k.tasksAll, op: 'zadd', score: task.createdAt, member },
    ...TASK_STATUSES.map((s): IndexOp => ({
      key: k.tasksByStatus(s),
      op: s === task.status ? 'zadd' : 'zrem',
      score: task.createdAt,
      member,
    })),
    { key: k.tasksCompleted, op: task.status === 'completed' ? 'zadd' : 'zrem', score: task.completedAt ?? 0, member },
  ];
  return writeArgs(k.task(task.id), mode, expected, { v: JSON.stringify(task), status: task.status }, ops);
}

export async function createTask(ctx: RedisContext, input: NewTask): Promise<Task> {
  const task = materializeTask(input, ctx.now());
  if ((await ctx.redis.batonWrite(...taskWrite(ctx, task, 'create'))) !== 1) throw conflict('task', task.id);
  return task;
}

export async function upsertTask(ctx: RedisContext, input: NewTask): Promise<Task> {
  const task = materializeTask(input, ctx.now());
  if ((await ctx.redis.batonWrite(...taskWrite(ctx, task, 'create'))) === 1) return task;
  const [existing] = await loadTasks(ctx, [input.id]);
  if (!existing) throw conflict('task', input.id);
  return existing;
}

/** Read, patch, compare-and-set: a concurrent writer makes it re-read instead of losing a write. */
export async function updateTask(ctx: RedisContext, id: string, patch: TaskPatch): Promise<Task> {
  const key = ctx.keys.task(id);
  return retryCompareAndSet('task', id, async () => {
    const raw = await ctx.redis.hget(key, 'v');
    if (raw === null) throw notFound('task', id);
    const next = applyTaskPatch(parseStored('task', key, raw), patch, ctx.now());
    return (await ctx.redis.batonWrite(...taskWrite(ctx, next, 'cas', raw))) === 1 ? { value: next } : undefined;
  });
}

export async function loadTasks(ctx: RedisContext, ids: readonly string[]): Promise<(Task | undefined)[]> {
  const keys = ids.map((id) => ctx.keys.task(id));
  const rows = await readHashes(ctx, keys, ['v']);
  return rows.map(([raw], i) => (typeof raw === 'string' ? parseStored('task', keys[i] as string, raw) : undefined));
}

/**
 * Oldest first by (createdAt, id). Several statuses are merged from their own indexes: each
 * index's first `limit` entries after the cursor contain the merged page's entries.
 */
export async function listTasks(ctx: RedisContext, query: TaskQuery = {}): Promise<Page<Task>> {
  const limit = pageSize(query.limit);
  const after = cursorEntry(query.cursor);
  const statuses = query.status === undefined ? undefined : ([] as TaskStatus[]).concat(query.status);
  const order = query.order === 'newest' ? 'desc' : 'asc';
  const sign = order === 'asc' ? 1 : -1;
  const page = (key: string, wanted?: TaskStatus) =>
    collectPage(walkZset(ctx.redis, key, { order, after, batch: Math.min(limit + 1, 500) }), {
      limit,
      load: (ids) => loadTasks(ctx, ids),
      // Import overwrites a task without reading it first, so an index may hold a stale member.
      accept: (t) => wanted === undefined || t.status === wanted,
      entryOf: (t) => ({ score: t.createdAt, member: t.id }),
    });
  if (!statuses) return page(ctx.keys.tasksAll);
  const pages = await Promise.all([...new Set(statuses)].map((s) => page(ctx.keys.tasksByStatus(s), s)));
  const merged = pages.flatMap((p) => p.items).sort((a, b) => sign * (a.createdAt - b.createdAt || compareMembers(a.id, b.id)));
  if (merged.length <= limit && pages.every((p) => p.nextCursor === undefined)) return { items: merged };
  const items = merged.slice(0, limit);
  const last = items[items.length - 1] as Task;
  return { items, nextCursor: encodeCursor([last.createdAt, last.id]) };
}

export async function countTasksByStatus(ctx: RedisContext): Promise<Record<TaskStatus, number>> {
  const pipeline = ctx.redis.pipeline();
  for (const s of TASK_STATUSES) pipeline.zcard(ctx.keys.tasksByStatus(s));
  const counts = await execAll(pipeline);
  return Object.fromEntries(TASK_STATUSES.map((s, i) => [s, Number(counts[i])])) as Record<TaskStatus, number>;
}

/** Newest completion first; ties by id descending, as the zset orders them. */
export async function recentCompletedTasks(ctx: RedisContext, limit: number): Promise<Task[]> {
  if (limit <= 0) return [];
  const ids = await ctx.redis.zrevrange(ctx.keys.tasksCompleted, 0, limit - 1);
  return (await loadTasks(ctx, ids)).filter((t): t is Task => t?.status === 'completed');
}
