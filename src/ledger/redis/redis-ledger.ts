import type { Ledger } from '../ledger.js';
import type {
  Breaker,
  BreakerWrite,
  Claim,
  ClaimResult,
  Dispatch,
  DispatchPatch,
  DispatchQuery,
  LedgerLine,
  LedgerRecord,
  NewAttemptDispatch,
  NewDispatch,
  NewTask,
  Page,
  RecordCollection,
  RecordQuery,
  Task,
  TaskPatch,
  TaskQuery,
  TaskStatus,
} from '../types.js';
import * as claims from './redis-claims.js';
import { type RedisContext, toLedgerError } from './redis-context.js';
import * as dispatches from './redis-dispatches.js';
import * as records from './redis-records.js';
import * as tasks from './redis-tasks.js';
import * as transfer from './redis-transfer.js';

/**
 * The Ledger over Redis or DragonflyDB (core commands and declared-key Lua only). Each method
 * delegates to its area's file and maps connection failures to LEDGER_UNAVAILABLE.
 */
export class RedisLedger implements Ledger {
  readonly backend = 'redis' as const;
  readonly location: string;

  constructor(private readonly ctx: RedisContext) {
    this.location = ctx.location;
  }

  createTask(input: NewTask): Promise<Task> {
    return this.guard('createTask', () => tasks.createTask(this.ctx, input));
  }
  upsertTask(input: NewTask): Promise<Task> {
    return this.guard('upsertTask', () => tasks.upsertTask(this.ctx, input));
  }
  updateTask(id: string, patch: TaskPatch): Promise<Task> {
    return this.guard('updateTask', () => tasks.updateTask(this.ctx, id, patch));
  }
  getTask(id: string): Promise<Task | undefined> {
    return this.guard('getTask', () => tasks.getTask(this.ctx, id));
  }
  listTasks(query?: TaskQuery): Promise<Page<Task>> {
    return this.guard('listTasks', () => tasks.listTasks(this.ctx, query));
  }
  countTasksByStatus(): Promise<Record<TaskStatus, number>> {
    return this.guard('countTasksByStatus', () => tasks.countTasksByStatus(this.ctx));
  }
  recentCompletedTasks(limit: number): Promise<Task[]> {
    return this.guard('recentCompletedTasks', () => tasks.recentCompletedTasks(this.ctx, limit));
  }

  appendDispatch(input: NewDispatch): Promise<Dispatch> {
    return this.guard('appendDispatch', () => dispatches.appendDispatch(this.ctx, input));
  }
  appendNextAttempt(input: NewAttemptDispatch): Promise<Dispatch> {
    return this.guard('appendNextAttempt', () => dispatches.appendNextAttempt(this.ctx, input));
  }
  updateDispatch(id: string, patch: DispatchPatch): Promise<Dispatch> {
    return this.guard('updateDispatch', () => dispatches.updateDispatch(this.ctx, id, patch));
  }
  getDispatch(id: string): Promise<Dispatch | undefined> {
    return this.guard('getDispatch', () => dispatches.getDispatch(this.ctx, id));
  }
  lastDispatches(taskId: string, limit: number): Promise<Dispatch[]> {
    return this.guard('lastDispatches', () => dispatches.lastDispatches(this.ctx, taskId, limit));
  }
  recentDispatches(limit: number): Promise<Dispatch[]> {
    return this.guard('recentDispatches', () => dispatches.recentDispatches(this.ctx, limit));
  }
  listDispatches(query?: DispatchQuery): Promise<Page<Dispatch>> {
    return this.guard('listDispatches', () => dispatches.listDispatches(this.ctx, query));
  }
  countDispatches(): Promise<number> {
    return this.guard('countDispatches', () => dispatches.countDispatches(this.ctx));
  }
  markInterrupted(filter?: { taskId?: string }): Promise<Dispatch[]> {
    return this.guard('markInterrupted', () => dispatches.markInterrupted(this.ctx, filter));
  }

  claimTask(taskId: string, owner: string, leaseMs: number): Promise<ClaimResult> {
    return this.guard('claimTask', () => claims.claimTask(this.ctx, taskId, owner, leaseMs));
  }
  releaseTask(taskId: string, owner: string): Promise<boolean> {
    return this.guard('releaseTask', () => claims.releaseTask(this.ctx, taskId, owner));
  }
  getClaim(taskId: string): Promise<Claim | undefined> {
    return this.guard('getClaim', () => claims.getClaim(this.ctx, taskId));
  }

  getBreaker(provider: string): Promise<Breaker | undefined> {
    return this.guard('getBreaker', () => claims.getBreaker(this.ctx, provider));
  }
  listBreakers(): Promise<Breaker[]> {
    return this.guard('listBreakers', () => claims.listBreakers(this.ctx));
  }
  compareAndSetBreaker(provider: string, expectedGeneration: number, next: BreakerWrite): Promise<Breaker | undefined> {
    return this.guard('compareAndSetBreaker', () => claims.compareAndSetBreaker(this.ctx, provider, expectedGeneration, next));
  }

  createRecord<T>(
    collection: RecordCollection,
    input: Omit<LedgerRecord<T>, 'id' | 'createdAt' | 'updatedAt'> & { id?: string },
  ): Promise<LedgerRecord<T>> {
    return this.guard('createRecord', () => records.createRecord(this.ctx, collection, input));
  }
  updateRecord<T>(
    collection: RecordCollection,
    id: string,
    patch: { status?: string; taskId?: string; data?: Partial<T> },
  ): Promise<LedgerRecord<T>> {
    return this.guard('updateRecord', () => records.updateRecord(this.ctx, collection, id, patch));
  }
  getRecord<T>(collection: RecordCollection, id: string): Promise<LedgerRecord<T> | undefined> {
    return this.guard('getRecord', () => records.getRecord<T>(this.ctx, collection, id));
  }
  listRecords<T>(collection: RecordCollection, query?: RecordQuery): Promise<Page<LedgerRecord<T>>> {
    return this.guard('listRecords', () => records.listRecords<T>(this.ctx, collection, query));
  }

  async *exportLines(): AsyncIterable<LedgerLine> {
    try {
      yield* transfer.exportLines(this.ctx);
    } catch (error) {
      throw toLedgerError(error, this.location, 'exportLines');
    }
  }
  importLines(lines: readonly LedgerLine[]): Promise<number> {
    return this.guard('importLines', () => transfer.importLines(this.ctx, lines));
  }

  /** Waits for pending replies, then closes; a connection that is already gone is just dropped. */
  async close(): Promise<void> {
    const { redis } = this.ctx;
    if (redis.status === 'end') return;
    try {
      await redis.quit();
    } catch {
      // Quitting a broken connection fails; disconnecting below is all that is left to do.
    } finally {
      redis.disconnect();
    }
  }

  private async guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toLedgerError(error, this.location, operation);
    }
  }
}
