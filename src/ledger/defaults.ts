import { BatonError } from '../errors/index.js';
import type {
  Breaker,
  BreakerWrite,
  Dispatch,
  DispatchPatch,
  LedgerRecord,
  NewDispatch,
  NewRecord,
  NewTask,
  RecordCollection,
  RecordPatch,
  Task,
  TaskStatus,
} from './types.js';
import { TASK_STATUSES } from './types.js';
import { checkTaskId, newId } from './ids.js';
import { redactForLedger } from './redact-for-ledger.js';

/*
 * Every record a backend writes is built here, and every builder masks secrets on the way in
 * (redactForLedger): one place, so no backend and no caller can write a secret.
 */

/** Fills a new task's defaults, secrets masked. Shared by every backend so they agree field for field. */
export function materializeTask(input: NewTask, now: number): Task {
  checkTaskId(input.id);
  return redactForLedger({
    instructions: '',
    intent: '',
    acceptanceCriteria: [],
    status: 'pending',
    priority: 0,
    dependsOn: [],
    options: {},
    links: {},
    ...stripUndefined(input),
    createdAt: now,
    updatedAt: now,
  });
}

/** Fills a new dispatch's defaults, secrets masked; `seq` is the backend's to assign. */
export function materializeDispatch(input: NewDispatch, seq: number, now: number): Dispatch {
  return redactForLedger({
    id: input.id ?? newId('d'),
    status: 'running',
    filesCreated: [],
    filesUpdated: [],
    filesDeleted: [],
    validationErrors: [],
    startedAt: now,
    ...stripUndefined(input),
    seq,
  });
}

/** A dispatch after a patch, secrets masked; its id, seq and task never change. */
export function applyDispatchPatch(current: Dispatch, patch: DispatchPatch): Dispatch {
  return { ...current, ...redactForLedger(stripUndefined(patch)), id: current.id, seq: current.seq, taskId: current.taskId };
}

/** A breaker's next state (its reason may quote a provider's error: secrets masked). */
export function materializeBreaker(provider: string, generation: number, next: BreakerWrite, now: number): Breaker {
  return { ...redactForLedger(stripUndefined(next)), provider, generation, updatedAt: now };
}

/** A new plain record of `collection`, secrets masked; its id is made when the input has none. */
export function materializeRecord<T>(input: NewRecord<T>, collection: RecordCollection, now: number): LedgerRecord<T> {
  const id = input.id ?? newId(collection.slice(0, 2));
  return redactForLedger(stripUndefined({ ...input, id, createdAt: now, updatedAt: now }));
}

export function emptyStatusCounts(): Record<TaskStatus, number> {
  return Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
}

/** Drops keys whose value is undefined, so a patch never erases a field by accident. */
export function stripUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** Applies a task patch (secrets masked) and its status change's side fields (completedAt on completion). */
export function applyTaskPatch(task: Task, patch: Partial<Task>, now: number): Task {
  const next = { ...task, ...redactForLedger(stripUndefined(patch)), id: task.id, createdAt: task.createdAt, updatedAt: now };
  if (patch.status === 'completed' && task.status !== 'completed' && patch.completedAt === undefined) {
    next.completedAt = now;
  }
  return next;
}

/** Applies a record patch; shared by every backend so `updateRecord` merges the same way. */
export function applyRecordPatch(current: LedgerRecord, patch: RecordPatch, now: number): LedgerRecord {
  return {
    ...current,
    ...stripUndefined({ status: patch.status, taskId: patch.taskId }),
    // Cloned (by the masking) so a caller reusing its patch cannot reach into the stored record.
    data: { ...current.data, ...redactForLedger(structuredClone(patch.data ?? {})) },
    updatedAt: now,
  };
}

/** Page size when a query names none; the same for every backend. */
export const DEFAULT_PAGE_SIZE = 50;

/** Page size from a query's limit: at least 1, whole, DEFAULT_PAGE_SIZE when absent. */
export function pageSize(limit: number | undefined): number {
  return Math.max(1, Math.floor(limit ?? DEFAULT_PAGE_SIZE));
}

/** Encodes a cursor (opaque to callers). */
export function encodeCursor(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** Decodes a cursor made by encodeCursor; throws INPUT_INVALID on garbage. */
export function decodeCursor(cursor: string): (string | number)[] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed)) return parsed as (string | number)[];
  } catch {
    // fall through to the error below
  }
  throw new BatonError('INPUT_INVALID', `Invalid cursor: ${JSON.stringify(cursor)}`);
}
