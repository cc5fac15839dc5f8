import {
  applyDispatchPatch,
  applyRecordPatch,
  applyTaskPatch,
  decodeCursor,
  emptyStatusCounts,
  encodeCursor,
  materializeBreaker,
  materializeDispatch,
  materializeRecord,
  materializeTask,
  pageSize,
} from '../defaults.js';
import { newId } from '../ids.js';
import { checkCollection, conflict, notFound } from '../ledger-errors.js';
import { redactLedgerLine } from '../redact-for-ledger.js';
import type { Ledger } from '../ledger.js';
// The contract's vocabulary (every method's argument and result types), shared by the three backends.
import type * as L from '../types.js';
import { RECORD_COLLECTIONS } from '../types.js';

/** In-process ledger for tests and examples: the reference behaviour of the contract. */
export class MemoryLedger implements Ledger {
  readonly backend = 'memory' as const;
  readonly location = ':memory:';
  private readonly tasks = new Map<string, L.Task>();
  private readonly dispatches: L.Dispatch[] = [];
  private readonly dispatchIndex = new Map<string, L.Dispatch>();
  private readonly claims = new Map<string, L.Claim>();
  private readonly breakers = new Map<string, L.Breaker>();
  private readonly records = new Map<L.RecordCollection, Map<string, L.LedgerRecord>>(RECORD_COLLECTIONS.map((c) => [c, new Map()]));
  private seq = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async createTask(input: L.NewTask): Promise<L.Task> {
    if (this.tasks.has(input.id)) throw conflict('task', input.id);
    // Clone on the way in as well as out: a caller reusing its input must not reach into the store.
    const task = materializeTask(structuredClone(input), this.now());
    this.tasks.set(task.id, task);
    return structuredClone(task);
  }

  async upsertTask(input: L.NewTask): Promise<L.Task> {
    const existing = this.tasks.get(input.id);
    return existing ? structuredClone(existing) : this.createTask(input);
  }

  async updateTask(id: string, patch: L.TaskPatch): Promise<L.Task> {
    const task = this.tasks.get(id);
    if (!task) throw notFound('task', id);
    const next = applyTaskPatch(task, structuredClone(patch), this.now());
    this.tasks.set(id, next);
    return structuredClone(next);
  }

  async getTask(id: string): Promise<L.Task | undefined> {
    const task = this.tasks.get(id);
    return task ? structuredClone(task) : undefined;
  }

  async getTasks(ids: readonly string[]): Promise<(L.Task | undefined)[]> {
    return Promise.all(ids.map((id) => this.getTask(id)));
  }

  async listTasks(query: L.TaskQuery = {}): Promise<L.Page<L.Task>> {
    const statuses = query.status === undefined ? undefined : ([] as L.TaskStatus[]).concat(query.status);
    const sign = query.order === 'newest' ? -1 : 1;
    const sorted = [...this.tasks.values()]
      .filter((t) => !statuses || statuses.includes(t.status))
      .sort((a, b) => sign * (a.createdAt - b.createdAt || cmp(a.id, b.id)));
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const beyond = (t: L.Task, [createdAt, id]: (string | number)[]) =>
      sign * (t.createdAt - Number(createdAt) || cmp(t.id, String(id))) > 0;
    const start = after ? sorted.findIndex((t) => beyond(t, after)) : 0;
    return paginate(start < 0 ? [] : sorted.slice(start), query.limit, (t) => [t.createdAt, t.id]);
  }

  async countTasksByStatus(): Promise<Record<L.TaskStatus, number>> {
    const counts = emptyStatusCounts();
    for (const t of this.tasks.values()) counts[t.status] += 1;
    return counts;
  }

  async recentCompletedTasks(limit: number): Promise<L.Task[]> {
    return [...this.tasks.values()]
      .filter((t) => t.status === 'completed')
      .sort((a, b) => (b.completedAt ?? 0) - (a.completedAt ?? 0) || cmp(b.id, a.id))
      .slice(0, limit)
      .map((t) => structuredClone(t));
  }

  async appendDispatch(input: L.NewDispatch): Promise<L.Dispatch> {
    return this.appendDispatchNow(input);
  }

  private appendDispatchNow(input: L.NewDispatch): L.Dispatch {
    if (input.id && this.dispatchIndex.has(input.id)) throw conflict('dispatch', input.id);
    this.seq += 1;
    const dispatch = materializeDispatch(structuredClone(input), this.seq, this.now());
    this.dispatches.push(dispatch);
    this.dispatchIndex.set(dispatch.id, dispatch);
    return structuredClone(dispatch);
  }

  async appendNextAttempt(input: L.NewAttemptDispatch): Promise<L.Dispatch> {
    // One synchronous step: no other call can run between reading the highest attempt and appending.
    let highest = 0;
    for (const d of this.dispatches) if (d.taskId === input.taskId && d.attempt > highest) highest = d.attempt;
    return this.appendDispatchNow({ ...input, attempt: highest + 1 });
  }

  async updateDispatch(id: string, patch: L.DispatchPatch): Promise<L.Dispatch> {
    const dispatch = this.dispatchIndex.get(id);
    if (!dispatch) throw notFound('dispatch', id);
    const next = applyDispatchPatch(dispatch, structuredClone(patch));
    Object.assign(dispatch, next);
    return structuredClone(dispatch);
  }

  async getDispatch(id: string): Promise<L.Dispatch | undefined> {
    const d = this.dispatchIndex.get(id);
    return d ? structuredClone(d) : undefined;
  }

  async lastDispatches(taskId: string, limit: number): Promise<L.Dispatch[]> {
    return (await this.listDispatches({ taskId, limit })).items;
  }

  async recentDispatches(limit: number): Promise<L.Dispatch[]> {
    return (await this.listDispatches({ limit })).items;
  }

  async listDispatches(query: L.DispatchQuery = {}): Promise<L.Page<L.Dispatch>> {
    const before = query.cursor ? Number(decodeCursor(query.cursor)[0]) : Number.POSITIVE_INFINITY;
    const items = [...this.dispatches]
      .reverse()
      .filter((d) => d.seq < before)
      .filter(
        (d) => (query.taskId === undefined || d.taskId === query.taskId) && (query.status === undefined || d.status === query.status),
      );
    return paginate(items, query.limit, (d) => [d.seq]);
  }

  async countDispatches(): Promise<number> {
    return this.dispatches.length;
  }

  async markInterrupted(filter: { taskId?: string } = {}): Promise<L.Dispatch[]> {
    const now = this.now();
    const changed: L.Dispatch[] = [];
    for (const d of this.dispatches) {
      if (d.status !== 'running' || (filter.taskId !== undefined && d.taskId !== filter.taskId)) continue;
      Object.assign(d, { status: 'interrupted', outcome: 'interrupted', finishedAt: now, durationMs: now - d.startedAt });
      changed.push(structuredClone(d));
    }
    return changed;
  }

  async claimTask(taskId: string, owner: string, leaseMs: number): Promise<L.ClaimResult> {
    const now = this.now();
    const current = this.claims.get(taskId);
    if (current && current.leaseUntil > now && current.owner !== owner) return { ok: false, holder: { ...current } };
    const claim = { taskId, owner, leaseUntil: now + leaseMs };
    this.claims.set(taskId, claim);
    return { ok: true, claim: { ...claim } };
  }

  async releaseTask(taskId: string, owner: string): Promise<boolean> {
    const current = this.claims.get(taskId);
    if (!current || current.owner !== owner) return false;
    this.claims.delete(taskId);
    return true;
  }

  async getClaim(taskId: string): Promise<L.Claim | undefined> {
    const current = this.claims.get(taskId);
    return current && current.leaseUntil > this.now() ? { ...current } : undefined;
  }

  async getBreaker(provider: string): Promise<L.Breaker | undefined> {
    const b = this.breakers.get(provider);
    return b ? { ...b } : undefined;
  }

  async listBreakers(): Promise<L.Breaker[]> {
    return [...this.breakers.values()].map((b) => ({ ...b })).sort((a, b) => cmp(a.provider, b.provider));
  }

  async compareAndSetBreaker(provider: string, expectedGeneration: number, next: L.BreakerWrite): Promise<L.Breaker | undefined> {
    const current = this.breakers.get(provider)?.generation ?? 0;
    if (current !== expectedGeneration) return undefined;
    const breaker = materializeBreaker(provider, current + 1, structuredClone(next), this.now());
    this.breakers.set(provider, breaker);
    return { ...breaker };
  }

  async createRecord<T>(collection: L.RecordCollection, input: L.NewRecord<T>): Promise<L.LedgerRecord<T>> {
    const store = this.store(collection);
    const id = input.id ?? newId(collection.slice(0, 2));
    if (store.has(id)) throw conflict(collection, id);
    const now = this.now();
    const record = materializeRecord(structuredClone(input), id, now);
    store.set(id, structuredClone(record) as L.LedgerRecord);
    return structuredClone(record);
  }

  async updateRecord<T>(collection: L.RecordCollection, id: string, patch: L.RecordPatch<T>): Promise<L.LedgerRecord<T>> {
    const store = this.store(collection);
    const current = store.get(id);
    if (!current) throw notFound(collection, id);
    const next = applyRecordPatch(current, patch, this.now());
    store.set(id, next);
    return structuredClone(next) as L.LedgerRecord<T>;
  }

  async getRecord<T>(collection: L.RecordCollection, id: string): Promise<L.LedgerRecord<T> | undefined> {
    const r = this.store(collection).get(id);
    return r ? (structuredClone(r) as L.LedgerRecord<T>) : undefined;
  }

  async listRecords<T>(collection: L.RecordCollection, query: L.RecordQuery = {}): Promise<L.Page<L.LedgerRecord<T>>> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const items = [...this.store(collection).values()]
      .filter((r) => query.status === undefined || r.status === query.status)
      .filter((r) => query.taskId === undefined || r.taskId === query.taskId)
      .filter((r) => query.since === undefined || r.updatedAt >= query.since)
      .sort((a, b) => b.updatedAt - a.updatedAt || cmp(b.id, a.id))
      .filter((r) => !after || r.updatedAt < Number(after[0]) || (r.updatedAt === Number(after[0]) && r.id < String(after[1])));
    return paginate(items, query.limit, (r) => [r.updatedAt, r.id]) as L.Page<L.LedgerRecord<T>>;
  }

  async *exportLines(): AsyncIterable<L.LedgerLine> {
    for (const t of [...this.tasks.values()].sort((a, b) => cmp(a.id, b.id))) yield { kind: 'task', record: structuredClone(t) };
    for (const d of this.dispatches) yield { kind: 'dispatch', record: structuredClone(d) };
    for (const b of await this.listBreakers()) yield { kind: 'breaker', record: b };
    for (const c of [...this.claims.values()].sort((a, b) => cmp(a.taskId, b.taskId))) yield { kind: 'claim', record: { ...c } };
    for (const collection of RECORD_COLLECTIONS) {
      for (const r of [...this.store(collection).values()].sort((a, b) => cmp(a.id, b.id))) {
        yield { kind: 'record', collection, record: structuredClone(r) };
      }
    }
  }

  async importLines(lines: readonly L.LedgerLine[]): Promise<number> {
    for (const line of lines.map(redactLedgerLine)) {
      switch (line.kind) {
        case 'task':
          this.tasks.set(line.record.id, structuredClone(line.record));
          break;
        case 'dispatch': {
          const existing = this.dispatchIndex.get(line.record.id);
          const d = structuredClone(line.record);
          if (existing) Object.assign(existing, d);
          else {
            this.dispatches.push(d);
            this.dispatchIndex.set(d.id, d);
          }
          this.seq = Math.max(this.seq, d.seq);
          break;
        }
        case 'breaker':
          this.breakers.set(line.record.provider, { ...line.record });
          break;
        case 'claim':
          this.claims.set(line.record.taskId, { ...line.record });
          break;
        case 'record':
          this.store(line.collection).set(line.record.id, structuredClone(line.record));
          break;
      }
    }
    this.dispatches.sort((a, b) => a.seq - b.seq);
    return lines.length;
  }

  async close(): Promise<void> {}

  private store(collection: L.RecordCollection): Map<string, L.LedgerRecord> {
    checkCollection(collection);
    return this.records.get(collection) as Map<string, L.LedgerRecord>;
  }
}

function paginate<T>(items: T[], limit: number | undefined, key: (item: T) => (string | number)[]): L.Page<T> {
  const size = pageSize(limit);
  const page = items.slice(0, size).map((item) => structuredClone(item));
  const last = page[page.length - 1];
  return items.length > size && last !== undefined ? { items: page, nextCursor: encodeCursor(key(last)) } : { items: page };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
