import { setTimeout as delay } from 'node:timers/promises';
import type { Task, TaskStatus } from '../ledger/index.js';
import { blockTask } from './block-task.js';
import { DEFAULT_MAX_ATTEMPTS, NO_PROVIDER } from './defaults.js';
import type { PlanTask } from './plan-types.js';
import type { ProviderChainOptions } from './provider-chain.js';
import { type RunClaimedOptions, runClaimedTask } from './run-claimed-task.js';

/**
 * A task whose run throws (the remote unreachable, the repository gone: no verdict on the task)
 * is run again this many times, after a backoff, before it is blocked with the error.
 */
export const TASK_RUN_RETRIES = 3;
/** The backoff before the first such retry, doubled for each one after it (±20 %). */
export const TASK_RUN_RETRY_MS = 1_000;

const FINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'blocked', 'archived']);

/** What runPlan sets; `claimed.chain`'s `now` and `sleep` time and wait out retry backoffs (tests pass a fake clock's). */
export interface SchedulerOptions {
  concurrency: number;
  pollMs: number;
  maxRetries?: number;
  claimed: Omit<RunClaimedOptions, 'maxAttempts'>;
}

/**
 * runPlan's scheduler: runs a plan's tasks in dependency order, up to `concurrency` at once, each
 * under a claim in the ledger; tasks other runs hold are left to them (or taken over when their
 * lease lapses). Ends when every task is final, or the signal aborts.
 */
export class TaskScheduler {
  /** The final status of each task that has one. */
  readonly final = new Map<string, TaskStatus>();
  /** The status each task had when this run last saw it. */
  readonly seen = new Map<string, TaskStatus>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly announced = new Map<string, string>();
  /** Tasks whose run threw: how often, and when they may run again. */
  private readonly thrown = new Map<string, { count: number; notBefore: number; message: string }>();
  private readonly chain: ProviderChainOptions;

  constructor(
    private readonly tasks: readonly PlanTask[],
    /** Each task as its upsert returned it: the first pass, right after, needs no read. */
    private readonly upserted: Map<string, Task>,
    private readonly options: SchedulerOptions,
  ) {
    this.chain = options.claimed.chain;
  }

  async run(): Promise<void> {
    const { signal } = this.chain;
    while (!signal?.aborted) {
      const open = await this.pass();
      // Only the first pass, right after the upserts, may take a task's state from them.
      this.upserted.clear();
      if (open === 0 && this.running.size === 0) break;
      await this.waitForChange();
    }
    await Promise.allSettled([...this.running.values()]);
  }

  /**
   * Waits for one of ours to finish, or looks again shortly for work other runs left. While
   * nothing runs here and a task waits out a retry's backoff, the wait is the injected clock's
   * (a fake clock's sleep returns at once, having moved the clock); otherwise a real timer: an
   * injected sleep that returns at once would spin the loop while an agent runs.
   */
  private async waitForChange(): Promise<void> {
    const { signal } = this.chain;
    const { pollMs } = this.options;
    const dueIn = this.nextRetryInMs();
    if (this.running.size === 0 && dueIn !== undefined) {
      await this.chain.sleep(Math.min(dueIn, pollMs), signal).catch(() => undefined);
      return;
    }
    const tick = delay(pollMs, undefined, signal ? { signal } : {}).catch(() => undefined);
    await Promise.race([...this.running.values(), tick]);
  }

  /** How long until the earliest retry of a task whose run threw is due, if one waits. */
  private nextRetryInMs(): number | undefined {
    let earliest: number | undefined;
    for (const [id, failing] of this.thrown) {
      if (this.final.has(id) || failing.count > TASK_RUN_RETRIES) continue;
      earliest = Math.min(earliest ?? failing.notBefore, failing.notBefore);
    }
    return earliest === undefined ? undefined : Math.max(0, earliest - this.chain.now());
  }

  /** One look at every task that is not final; how many are not. */
  private async pass(): Promise<number> {
    let open = 0;
    for (const planTask of this.tasks) {
      if (this.chain.signal?.aborted) break;
      if (this.final.has(planTask.id)) continue;
      open += 1;
      if (this.running.has(planTask.id) || this.running.size >= this.options.concurrency) continue;
      const failing = this.thrown.get(planTask.id);
      if (failing && this.chain.now() < failing.notBefore) continue;
      const task = await this.ready(planTask);
      if (!task) continue;
      if (failing && failing.count > TASK_RUN_RETRIES) await this.blockThrown(task, failing);
      else await this.claimAndStart(planTask, task);
    }
    return open;
  }

  /** The task when it may start now (not final, its dependencies completed); blocks it when one is blocked. */
  private async ready(planTask: PlanTask): Promise<Task | undefined> {
    const task = this.upserted.get(planTask.id) ?? (await this.chain.ledger.getTask(planTask.id));
    this.upserted.delete(planTask.id);
    if (!task) return undefined;
    this.seen.set(task.id, task.status);
    if (FINAL.has(task.status)) {
      this.final.set(task.id, task.status);
      return undefined;
    }
    const failedDep = planTask.dependsOn.find((id) => this.final.get(id) === 'blocked' || this.final.get(id) === 'archived');
    if (failedDep) {
      await blockTask(task.id, `Dependency "${failedDep}" is ${this.final.get(failedDep)}`, this.chain);
      this.final.set(task.id, 'blocked');
      return undefined;
    }
    // Dependencies not finished yet (here or in another run): come back to it.
    return planTask.dependsOn.every((id) => this.final.get(id) === 'completed') ? task : undefined;
  }

  /** Claims the task and, unless another run finished it while this one waited, starts it. */
  private async claimAndStart(planTask: PlanTask, task: Task): Promise<void> {
    const { ledger, owner, onEvent } = this.chain;
    const claim = await ledger.claimTask(task.id, owner, this.options.claimed.leaseMs);
    if (!claim.ok) {
      if (this.announced.get(task.id) !== claim.holder.owner) {
        this.announced.set(task.id, claim.holder.owner);
        onEvent({ type: 'claim-wait', taskId: task.id, holder: claim.holder.owner, untilMs: claim.holder.leaseUntil });
      }
      return;
    }
    // Re-read after the claim: the holder we waited for may have finished the task.
    const fresh = await ledger.getTask(task.id);
    if (fresh) this.seen.set(fresh.id, fresh.status);
    if (!fresh || FINAL.has(fresh.status)) {
      await ledger.releaseTask(task.id, owner).catch(() => false);
      const status = fresh?.status ?? 'archived';
      this.final.set(task.id, status);
      onEvent({ type: 'task-skip', taskId: task.id, status, reason: `${status} by another run` });
      return;
    }
    this.start(planTask, fresh);
  }

  private start(planTask: PlanTask, task: Task): void {
    const maxAttempts = planTask.maxRetries ?? this.options.maxRetries ?? DEFAULT_MAX_ATTEMPTS;
    const run = runClaimedTask(task, { ...this.options.claimed, maxAttempts })
      .then((done) => {
        this.seen.set(done.id, done.status);
        if (FINAL.has(done.status)) this.final.set(done.id, done.status);
      })
      .catch((error: unknown) => this.recordThrow(task.id, error))
      .finally(() => this.running.delete(task.id));
    this.running.set(task.id, run);
  }

  /** A run that threw is tried again after a backoff (1, 2, 4 s…), never at once. */
  private recordThrow(taskId: string, error: unknown): void {
    const count = (this.thrown.get(taskId)?.count ?? 0) + 1;
    const backoffMs = TASK_RUN_RETRY_MS * 2 ** (count - 1) * (0.8 + Math.random() * 0.4);
    const message = error instanceof Error ? error.message : String(error);
    const retry = count <= TASK_RUN_RETRIES;
    // A run being stopped (by its caller, or a worker whose clone failed) tries nothing again.
    const next = this.chain.signal?.aborted ? '; the run is stopping' : retry ? `; trying again in ${Math.round(backoffMs)} ms` : '';
    this.chain.logger.error({ err: error, taskId, failures: count }, `task run failed${next}`);
    // Out of retries: blocked on the next pass.
    this.thrown.set(taskId, { count, notBefore: retry ? this.chain.now() + backoffMs : 0, message });
  }

  /** Out of retries: the error becomes a failed attempt of the task, and the task is blocked with it. */
  private async blockThrown(task: Task, failing: { count: number; message: string }): Promise<void> {
    const { ledger, owner } = this.chain;
    const claim = await ledger.claimTask(task.id, owner, this.options.claimed.leaseMs);
    if (!claim.ok) return;
    const reason = `Could not run the task (${failing.count} tries): ${failing.message}`.slice(0, 500);
    // An attempt the throw cut short is not left `running`.
    await ledger.markInterrupted({ taskId: task.id });
    const now = this.chain.now();
    await ledger.appendNextAttempt({
      taskId: task.id,
      provider: NO_PROVIDER,
      status: 'failed',
      result: reason,
      claimedBy: owner,
      startedAt: now,
      finishedAt: now,
      durationMs: 0,
    });
    await blockTask(task.id, reason, this.chain);
    await ledger.releaseTask(task.id, owner).catch(() => false);
    this.final.set(task.id, 'blocked');
    this.seen.set(task.id, 'blocked');
  }
}
