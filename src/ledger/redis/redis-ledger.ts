import type { Ledger } from '../ledger.js';
// The contract's vocabulary (every method's argument and result types), shared by the three backends.
import type * as L from '../types.js';
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

  createTask(input: L.NewTask): Promise<L.Task> {
    return this.guard('createTask', () => tasks.createTask(this.ctx, input));
  }
  upsertTask(input: L.NewTask): Promise<L.Task> {
    return this.guard('upsertTask', () => tasks.upsertTask(this.ctx, input));
  }
  updateTask(id: string, patch: L.TaskPatch): Promise<L.Task> {
    return this.guard('updateTask', () => tasks.updateTask(this.ctx, id, patch));
  }
  getTask(id: string): Promise<L.Task | undefined> {
    return this.guard('getTask', () => tasks.getTask(this.ctx, id));
  }
  getTasks(ids: readonly string[]): Promise<(L.Task | undefined)[]> {
    return this.guard('getTasks', () => tasks.loadTasks(this.ctx, ids));
  }
  listTasks(query?: L.TaskQuery): Promise<L.Page<L.Task>> {
    return this.guard('listTasks', () => tasks.listTasks(this.ctx, query));
  }
  countTasksByStatus(): Promise<Record<L.TaskStatus, number>> {
    return this.guard('countTasksByStatus', () => tasks.countTasksByStatus(this.ctx));
  }
  recentCompletedTasks(limit: number): Promise<L.Task[]> {
    return this.guard('recentCompletedTasks', () => tasks.recentCompletedTasks(this.ctx, limit));
  }

  appendDispatch(input: L.NewDispatch): Promise<L.Dispatch> {
    return this.guard('appendDispatch', () => dispatches.appendDispatch(this.ctx, input));
  }
  appendNextAttempt(input: L.NewAttemptDispatch): Promise<L.Dispatch> {
    return this.guard('appendNextAttempt', () => dispatches.appendNextAttempt(this.ctx, input));
  }
  updateDispatch(id: string, patch: L.DispatchPatch): Promise<L.Dispatch> {
    return this.guard('updateDispatch', () => dispatches.updateDispatch(this.ctx, id, patch));
  }
  getDispatch(id: string): Promise<L.Dispatch | undefined> {
    return this.guard('getDispatch', () => dispatches.getDispatch(this.ctx, id));
  }
  lastDispatches(taskId: string, limit: number): Promise<L.Dispatch[]> {
    return this.guard('lastDispatches', () => dispatches.lastDispatches(this.ctx, taskId, limit));
  }
  recentDispatches(limit: number): Promise<L.Dispatch[]> {
    return this.guard('recentDispatches', () => dispatches.recentDispatches(this.ctx, limit));
  }
  listDispatches(query?: L.DispatchQuery): Promise<L.Page<L.Dispatch>> {
    return this.guard('listDispatches', () => dispatches.listDispatches(this.ctx, query));
  }
  countDispatches(): Promise<number> {
    return this.guard('countDispatches', () => dispatches.countDispatches(this.ctx));
  }
  markInterrupted(filter?: { taskId?: string }): Promise<L.Dispatch[]> {
    return this.guard('markInterrupted', () => dispatches.markInterrupted(this.ctx, filter));
  }

  claimTask(taskId: string, owner: string, leaseMs: number): Promise<L.ClaimResult> {
    return this.guard('claimTask', () => claims.claimTask(this.ctx, taskId, owner, leaseMs));
  }
  releaseTask(taskId: string, owner: string): Promise<boolean> {
    return this.guard('releaseTask', () => claims.releaseTask(this.ctx, taskId, owner));
  }
  getClaim(taskId: string): Promise<L.Claim | undefined> {
    return this.guard('getClaim', () => claims.getClaim(this.ctx, taskId));
  }

  getBreaker(provider: string): Promise<L.Breaker | undefined> {
    return this.guard('getBreaker', () => claims.getBreaker(this.ctx, provider));
  }
  listBreakers(): Promise<L.Breaker[]> {
    return this.guard('listBreakers', () => claims.listBreakers(this.ctx));
  }
  compareAndSetBreaker(provider: string, expectedGeneration: number, next: L.BreakerWrite): Promise<L.Breaker | undefined> {
    return this.guard('compareAndSetBreaker', () => claims.compareAndSetBreaker(this.ctx, provider, expectedGeneration, next));
  }

  createRecord<T>(collection: L.RecordCollection, input: L.NewRecord<T>): Promise<L.LedgerRecord<T>> {
    return this.guard('createRecord', () => records.createRecord(this.ctx, collection, input));
  }
  updateRecord<T>(collection: L.RecordCollection, id: string, patch: L.RecordPatch<T>): Promise<L.LedgerRecord<T>> {
    return this.guard('updateRecord', () => records.updateRecord(this.ctx, collection, id, patch));
  }
  getRecord<T>(collection: L.RecordCollection, id: string): Promise<L.LedgerRecord<T> | undefined> {
    return this.guard('getRecord', () => records.getRecord<T>(this.ctx, collection, id));
  }
  listRecords<T>(collection: L.RecordCollection, query?: L.RecordQuery): Promise<L.Page<L.LedgerRecord<T>>> {
    return this.guard('listRecords', () => records.listRecords<T>(this.ctx, collection, query));
  }

  async *exportLines(): AsyncIterable<L.LedgerLine> {
    try {
      yield* transfer.exportLines(this.ctx);
    } catch (error) {
      throw toLedgerError(error, this.location, 'exportLines');
    }
  }
  importLines(lines: readonly L.LedgerLine[]): Promise<number> {
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
