// The contract's vocabulary (every method's argument and result types).
import type * as L from './types.js';

/*
 * A ledger is a small core (tasks and dispatches) plus optional capabilities, each its own
 * interface with a guard, as openai-agents-js does with Session. Whoever writes a backend
 * implements `LedgerCore` and whichever capabilities it can honour; a caller that can do without a
 * capability checks for it (`isBreakerCapable(ledger)`) instead of requiring it. The three bundled
 * backends implement all of them: that full set is `Ledger`, which Baton's own modules take.
 *
 * Errors, for every method: unknown ids on update throw BatonError('NOT_FOUND'); creating an
 * existing id throws BatonError('LEDGER_CONFLICT'); a backend that cannot be reached throws
 * 'LEDGER_UNAVAILABLE'. Every backend passes the same contract suite (test/ledger/contract.ts).
 */

/** The part every backend implements: tasks, the dispatches made for them, and closing. */
export interface LedgerCore {
  readonly backend: 'memory' | 'sqlite' | 'redis';
  /** Where it lives, for messages: a file path, a redis URL without password, or ':memory:'. */
  readonly location: string;

  /** Creates a task. Throws LEDGER_CONFLICT when the id exists. */
  createTask(input: L.NewTask): Promise<L.Task>;
  /** Creates the task, or returns the existing one unchanged (idempotent for plan loading). */
  upsertTask(input: L.NewTask): Promise<L.Task>;
  /** Applies a patch and bumps updatedAt. Throws NOT_FOUND. */
  updateTask(id: string, patch: L.TaskPatch): Promise<L.Task>;
  getTask(id: string): Promise<L.Task | undefined>;
  /** Several tasks in one read (one round trip on Redis), in the order asked; undefined where missing. */
  getTasks(ids: readonly string[]): Promise<(L.Task | undefined)[]>;
  /** Tasks by status (any when omitted), oldest first, paginated by cursor. */
  listTasks(query?: L.TaskQuery): Promise<L.Page<L.Task>>;
  countTasksByStatus(): Promise<Record<L.TaskStatus, number>>;
  /** The most recently completed tasks, newest first (seed 001's recent_history). */
  recentCompletedTasks(limit: number): Promise<L.Task[]>;

  /** Appends a dispatch; the ledger assigns `seq` (and `id` when absent). */
  appendDispatch(input: L.NewDispatch): Promise<L.Dispatch>;
  /**
   * Appends a dispatch as a new attempt of its task: its attempt number is one past the highest
   * attempt among the task's dispatches, allocated and written in one atomic step (SQLite: one
   * write transaction; Redis: one Lua script with declared keys), so concurrent callers in any
   * number of processes get distinct numbers. Further provider tries of the same attempt use
   * appendDispatch with the returned number.
   */
  appendNextAttempt(input: L.NewAttemptDispatch): Promise<L.Dispatch>;
  /** Applies a patch to a dispatch. Throws NOT_FOUND. */
  updateDispatch(id: string, patch: L.DispatchPatch): Promise<L.Dispatch>;
  getDispatch(id: string): Promise<L.Dispatch | undefined>;
  /** A task's last `limit` dispatches, newest first. */
  lastDispatches(taskId: string, limit: number): Promise<L.Dispatch[]>;
  /** The newest `limit` dispatches across all tasks, newest first. */
  recentDispatches(limit: number): Promise<L.Dispatch[]>;
  /** Dispatches newest first, filtered, paginated by cursor. */
  listDispatches(query?: L.DispatchQuery): Promise<L.Page<L.Dispatch>>;
  countDispatches(): Promise<number>;
  /**
   * Marks every `running` dispatch (of one task when given) as `interrupted`, with outcome
   * 'interrupted' and finishedAt now. Returns the dispatches it changed.
   */
  markInterrupted(filter?: { taskId?: string }): Promise<L.Dispatch[]>;

  close(): Promise<void>;
}

/** Capability: leases on tasks, so several workers can share one ledger without doing a task twice. */
export interface LedgerClaims {
  /**
   * Atomically claims a task for `owner` for `leaseMs`. Succeeds when nobody holds it, the lease
   * lapsed, or `owner` already holds it (which renews the lease). Two callers racing on one
   * ledger never both succeed while a lease is live.
   */
  claimTask(taskId: string, owner: string, leaseMs: number): Promise<L.ClaimResult>;
  /** Releases the claim if `owner` holds it; returns whether it did. Idempotent. */
  releaseTask(taskId: string, owner: string): Promise<boolean>;
  /** The live claim on a task, if any (lapsed leases are not returned). */
  getClaim(taskId: string): Promise<L.Claim | undefined>;
}

/** Capability: circuit-breaker state shared by every process on the ledger. */
export interface LedgerBreakers {
  getBreaker(provider: string): Promise<L.Breaker | undefined>;
  listBreakers(): Promise<L.Breaker[]>;
  /**
   * Writes the breaker only if its current generation is `expectedGeneration` (0 when it does not
   * exist yet); the stored generation becomes expectedGeneration + 1. Returns the new breaker, or
   * undefined when another writer got there first (atomic compare-and-set).
   */
  compareAndSetBreaker(provider: string, expectedGeneration: number, next: L.BreakerWrite): Promise<L.Breaker | undefined>;
}

/** Capability: plain records (tech debt, research, recon, sessions, snapshots, audit). */
export interface LedgerRecords {
  /** Creates a record; the ledger assigns `id` when absent. Throws LEDGER_CONFLICT when the id exists. */
  createRecord<T>(collection: L.RecordCollection, input: L.NewRecord<T>): Promise<L.LedgerRecord<T>>;
  /** Patches status/taskId and shallow-merges `data`. Throws NOT_FOUND. */
  updateRecord<T>(collection: L.RecordCollection, id: string, patch: L.RecordPatch<T>): Promise<L.LedgerRecord<T>>;
  getRecord<T>(collection: L.RecordCollection, id: string): Promise<L.LedgerRecord<T> | undefined>;
  /** Records newest first (by updatedAt), filtered, paginated by cursor. */
  listRecords<T>(collection: L.RecordCollection, query?: L.RecordQuery): Promise<L.Page<L.LedgerRecord<T>>>;
}

/** Capability: the whole ledger as JSON lines, out and back in (`baton export` / `baton import`). */
export interface LedgerTransfer {
  /** Every record of every kind, one line each, in a stable order. */
  exportLines(): AsyncIterable<L.LedgerLine>;
  /**
   * Writes already-validated lines, all or nothing (SQLite: one transaction; Redis: the result
   * built under a staging prefix, then switched in by one MULTI). Existing ids are overwritten, so
   * importing the same lines twice is idempotent.
   */
  importLines(lines: readonly L.LedgerLine[]): Promise<number>;
}

/**
 * The full set: the core plus every capability. The bundled backends (memory, SQLite, Redis)
 * implement it and `openLedger` returns it; Baton's modules take it where they need more than the
 * core.
 */
export interface Ledger extends LedgerCore, LedgerClaims, LedgerBreakers, LedgerRecords, LedgerTransfer {}

function hasMethods(ledger: LedgerCore, names: readonly string[]): boolean {
  const methods = ledger as unknown as Record<string, unknown>;
  return names.every((name) => typeof methods[name] === 'function');
}

/** Whether the ledger can lease tasks to workers (claimTask, releaseTask, getClaim). */
export function isClaimCapable<L extends LedgerCore>(ledger: L): ledger is L & LedgerClaims {
  return hasMethods(ledger, ['claimTask', 'releaseTask', 'getClaim']);
}

/** Whether the ledger stores circuit breakers (getBreaker, listBreakers, compareAndSetBreaker). */
export function isBreakerCapable<L extends LedgerCore>(ledger: L): ledger is L & LedgerBreakers {
  return hasMethods(ledger, ['getBreaker', 'listBreakers', 'compareAndSetBreaker']);
}

/** Whether the ledger stores plain records (createRecord, updateRecord, getRecord, listRecords). */
export function isRecordCapable<L extends LedgerCore>(ledger: L): ledger is L & LedgerRecords {
  return hasMethods(ledger, ['createRecord', 'updateRecord', 'getRecord', 'listRecords']);
}

/** Whether the ledger can export and import itself as lines (exportLines, importLines). */
export function isTransferCapable<L extends LedgerCore>(ledger: L): ledger is L & LedgerTransfer {
  return hasMethods(ledger, ['exportLines', 'importLines']);
}

/** Whether the ledger has every capability, i.e. is a full `Ledger`. */
export function isFullLedger(ledger: LedgerCore): ledger is Ledger {
  return isClaimCapable(ledger) && isBreakerCapable(ledger) && isRecordCapable(ledger) && isTransferCapable(ledger);
}
