import type { Redis } from 'ioredis';
import type { Ledger } from '../ledger.js';
import { translateLedgerErrors } from '../ledger-errors.js';
import * as claims from './redis-claims.js';
import { type RedisContext, toLedgerError } from './redis-context.js';
import * as dispatches from './redis-dispatches.js';
import * as records from './redis-records.js';
import * as tasks from './redis-tasks.js';
import * as transfer from './redis-transfer.js';

/**
 * The Ledger over Redis or DragonflyDB (core commands and declared-key Lua only). Each method is
 * its area's function on this connection; a failure of Redis surfaces as a BatonError naming the
 * server (toLedgerError), connection failures as LEDGER_UNAVAILABLE.
 */
export function createRedisLedger(ctx: RedisContext): Ledger {
  const ledger: Ledger = {
    backend: 'redis',
    location: ctx.location,

    createTask: (input) => tasks.createTask(ctx, input),
    upsertTask: (input) => tasks.upsertTask(ctx, input),
    updateTask: (id, patch) => tasks.updateTask(ctx, id, patch),
    getTask: async (id) => (await tasks.loadTasks(ctx, [id]))[0],
    getTasks: (ids) => tasks.loadTasks(ctx, ids),
    listTasks: (query) => tasks.listTasks(ctx, query),
    countTasksByStatus: () => tasks.countTasksByStatus(ctx),
    recentCompletedTasks: (limit) => tasks.recentCompletedTasks(ctx, limit),

    appendDispatch: (input) => dispatches.appendDispatch(ctx, input),
    appendNextAttempt: (input) => dispatches.appendNextAttempt(ctx, input),
    updateDispatch: (id, patch) => dispatches.updateDispatch(ctx, id, patch),
    getDispatch: async (id) => (await dispatches.loadDispatches(ctx, [id]))[0],
    lastDispatches: (taskId, limit) => dispatches.lastDispatches(ctx, taskId, limit),
    recentDispatches: (limit) => dispatches.recentDispatches(ctx, limit),
    listDispatches: (query) => dispatches.listDispatches(ctx, query),
    countDispatches: () => dispatches.countDispatches(ctx),
    markInterrupted: (filter) => dispatches.markInterrupted(ctx, filter),

    claimTask: (taskId, owner, leaseMs) => claims.claimTask(ctx, taskId, owner, leaseMs),
    releaseTask: (taskId, owner) => claims.releaseTask(ctx, taskId, owner),
    getClaim: async (taskId) => (await claims.loadClaims(ctx, [taskId]))[0],
    getBreaker: (provider) => claims.getBreaker(ctx, provider),
    listBreakers: () => claims.listBreakers(ctx),
    compareAndSetBreaker: (provider, expectedGeneration, next) => claims.compareAndSetBreaker(ctx, provider, expectedGeneration, next),

    createRecord: (collection, input) => records.createRecord(ctx, collection, input),
    updateRecord: (collection, id, patch) => records.updateRecord(ctx, collection, id, patch),
    getRecord: (collection, id) => records.getRecord(ctx, collection, id),
    listRecords: (collection, query) => records.listRecords(ctx, collection, query),

    exportLines: () => transfer.exportLines(ctx),
    importLines: (lines) => transfer.importLines(ctx, lines),

    close: () => closeConnection(ctx.redis),
  };
  return translateLedgerErrors(ledger, (error, operation) => toLedgerError(error, ctx.location, operation));
}

/** Waits for pending replies, then closes; a connection that is already gone is just dropped. */
async function closeConnection(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await redis.quit();
  } catch {
    // Quitting a broken connection fails; disconnecting below is all that is left to do.
  } finally {
    redis.disconnect();
  }
}
