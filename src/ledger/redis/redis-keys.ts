import type { DispatchStatus, RecordCollection, TaskStatus } from '../types.js';

/** Key names of one ledger namespace, all under `baton:<namespace>:`. */
export type RedisKeys = ReturnType<typeof createRedisKeys>;

/** Builds the key names of a namespace. Ids go last in each key, so any id is safe. */
export function createRedisKeys(namespace: string) {
  const p = `baton:${namespace}:`;
  return {
    prefix: p,
    task: (id: string) => `${p}task:${id}`,
    /** Zset of every task id, scored by createdAt. */
    tasksAll: `${p}tasks:all`,
    /** Zset of the task ids in one status, scored by createdAt. */
    tasksByStatus: (status: TaskStatus) => `${p}tasks:by_status:${status}`,
    /** Zset of completed task ids, scored by completedAt. */
    tasksCompleted: `${p}tasks:completed`,
    dispatch: (id: string) => `${p}dispatch:${id}`,
    /** Counter INCRed to give each appended dispatch its seq. */
    dispatchSeq: `${p}dispatch_seq`,
    /** Zset of every dispatch id, scored by seq. */
    dispatchesAll: `${p}dispatches`,
    dispatchesByTask: (taskId: string) => `${p}dispatches:by_task:${taskId}`,
    /**
     * Hash dispatch id -> stored JSON of one task's dispatches: a copy of each dispatch hash's `v`,
     * kept next to the task's zset so a script declaring both reads a task's last N in one trip.
     */
    dispatchesJsonByTask: (taskId: string) => `${p}dispatches:json_by_task:${taskId}`,
    dispatchesByStatus: (status: DispatchStatus) => `${p}dispatches:by_status:${status}`,
    claim: (taskId: string) => `${p}claim:${taskId}`,
    /** Set of task ids that had a claim; expired ones are pruned when read. */
    claims: `${p}claims`,
    /** Hash provider -> breaker JSON. */
    breakers: `${p}breakers`,
    /** Hash provider -> generation, kept apart so the CAS script needs no JSON decoding. */
    breakerGenerations: `${p}breakers:generation`,
    record: (collection: RecordCollection, id: string) => `${p}rec:${collection}:${id}`,
    /** Zset of a collection's record ids, scored by updatedAt. */
    recordsAll: (collection: RecordCollection) => `${p}recs:${collection}:all`,
    recordsByStatus: (collection: RecordCollection, status: string) => `${p}recs:${collection}:by_status:${status}`,
    recordsByTask: (collection: RecordCollection, taskId: string) => `${p}recs:${collection}:by_task:${taskId}`,
  } as const;
}
