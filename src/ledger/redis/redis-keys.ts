import type { DispatchStatus, RecordCollection, TaskStatus } from '../types.js';

/** Key names of one ledger namespace, all under `baton:<namespace>:`. */
export interface RedisKeys {
  readonly prefix: string;
  task(id: string): string;
  /** Zset of every task id, scored by createdAt. */
  readonly tasksAll: string;
  /** Zset of the task ids in one status, scored by createdAt. */
  tasksByStatus(status: TaskStatus): string;
  /** Zset of completed task ids, scored by completedAt. */
  readonly tasksCompleted: string;
  dispatch(id: string): string;
  /** Counter INCRed to give each appended dispatch its seq. */
  readonly dispatchSeq: string;
  /** Zset of every dispatch id, scored by seq. */
  readonly dispatchesAll: string;
  dispatchesByTask(taskId: string): string;
  /**
   * Hash dispatch id -> stored JSON of one task's dispatches: a copy of each dispatch hash's `v`,
   * kept next to the task's zset so a script declaring both reads a task's last N in one trip.
   */
  dispatchesJsonByTask(taskId: string): string;
  dispatchesByStatus(status: DispatchStatus): string;
  claim(taskId: string): string;
  /** Set of task ids that had a claim; expired ones are pruned when read. */
  readonly claims: string;
  /** Hash provider -> breaker JSON. */
  readonly breakers: string;
  /** Hash provider -> generation, kept apart so the CAS script needs no JSON decoding. */
  readonly breakerGenerations: string;
  record(collection: RecordCollection, id: string): string;
  /** Zset of a collection's record ids, scored by updatedAt. */
  recordsAll(collection: RecordCollection): string;
  recordsByStatus(collection: RecordCollection, status: string): string;
  recordsByTask(collection: RecordCollection, taskId: string): string;
}

/** Builds the key names of a namespace. Ids go last in each key, so any id is safe. */
export function createRedisKeys(namespace: string): RedisKeys {
  const p = `baton:${namespace}:`;
  return {
    prefix: p,
    task: (id) => `${p}task:${id}`,
    tasksAll: `${p}tasks:all`,
    tasksByStatus: (status) => `${p}tasks:by_status:${status}`,
    tasksCompleted: `${p}tasks:completed`,
    dispatch: (id) => `${p}dispatch:${id}`,
    dispatchSeq: `${p}dispatch_seq`,
    dispatchesAll: `${p}dispatches`,
    dispatchesByTask: (taskId) => `${p}dispatches:by_task:${taskId}`,
    dispatchesJsonByTask: (taskId) => `${p}dispatches:json_by_task:${taskId}`,
    dispatchesByStatus: (status) => `${p}dispatches:by_status:${status}`,
    claim: (taskId) => `${p}claim:${taskId}`,
    claims: `${p}claims`,
    breakers: `${p}breakers`,
    breakerGenerations: `${p}breakers:generation`,
    record: (collection, id) => `${p}rec:${collection}:${id}`,
    recordsAll: (collection) => `${p}recs:${collection}:all`,
    recordsByStatus: (collection, status) => `${p}recs:${collection}:by_status:${status}`,
    recordsByTask: (collection, taskId) => `${p}recs:${collection}:by_task:${taskId}`,
  };
}
