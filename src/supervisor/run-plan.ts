import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Ledger, Task, TaskStatus } from '../ledger/index.js';
import { newId } from '../ledger/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import { DEFAULT_PRE_CONTEXT_SETTINGS, type PreContextSettings } from '../precontext/index.js';
import { DEFAULT_RECENT_HISTORY_WINDOW } from '../prompt/index.js';
import type { Provider } from '../providers/index.js';
import { buildRunReport, type RunReport } from './build-run-report.js';
import { CircuitBreaker } from './circuit-breaker.js';
import {
  DEFAULT_AGENT_TIMEOUT_MS,
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_TASK_LEASE_MS,
} from './defaults.js';
import type { Plan, PlanTask } from './plan-types.js';
import type { ProviderChainOptions } from './provider-chain.js';
import { type RunClaimedOptions, runClaimedTask, type TaskSites } from './run-claimed-task.js';
import type { BreakerSettings, EventSink, WorkspaceOps } from './types.js';

export interface RunPlanOptions {
  ledger: Ledger;
  /** Providers in priority order. */
  providers: readonly Provider[];
  /** Providers for the helper agent. @default providers */
  helperProviders?: readonly Provider[];
  workspace: WorkspaceOps;
  /** The folder agents work in and checks run in. */
  workspaceDir: string;
  /** @default DEFAULT_PRE_CONTEXT_SETTINGS */
  preContext?: PreContextSettings;
  breaker?: Partial<BreakerSettings>;
  /** @default 5 */
  recentHistoryWindow?: number;
  /** @default DEFAULT_AGENT_TIMEOUT_MS */
  agentTimeoutMs?: number;
  /** @default DEFAULT_CHECK_TIMEOUT_MS */
  checkTimeoutMs?: number;
  /** Attempts for tasks without retry_policy.max_retries. @default DEFAULT_MAX_ATTEMPTS */
  maxRetries?: number;
  /** @default DEFAULT_MAX_WAIT_MS */
  maxWaitMs?: number;
  /** Task claim lease, renewed every third of it while the task runs. @default DEFAULT_TASK_LEASE_MS */
  leaseMs?: number;
  /** Tasks run at once. Above 1, `sites` must give each task its own working copy. @default 1 */
  concurrency?: number;
  /** Where each task runs (git worktrees for --concurrency); the shared workspaceDir when absent. */
  sites?: TaskSites;
  /** How often to look again for work while other runs hold every ready task. @default min(500, leaseMs / 4) */
  pollMs?: number;
  /** @default `<host>:<pid>:<random>` */
  owner?: string;
  /**
   * false: the report is not read back from the ledger; it lists each task with the status this
   * run last saw and no attempts (a worker's job needs only its task's status). @default true
   */
  report?: boolean;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
  onEvent?: EventSink;
  signal?: AbortSignal;
}

const FINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'blocked', 'archived']);

/**
 * The control loop: upserts the plan's tasks into the ledger and runs them in dependency order,
 * up to `concurrency` at once. Several runs may share one plan and ledger: each task is claimed
 * with a lease (renewed while it runs) and its status re-read after the claim, so a task another
 * run completed is never run again, and a task held by a live run is left to it while this run
 * takes other work (or waits). A dead run's lease lapses and its task is resumed here: its
 * `running` dispatches are marked interrupted and the attempts continue after them, with
 * context. A task whose dependency is blocked is blocked too. Returns when every task of the
 * plan is completed, blocked or archived (by this run or others), or the signal aborts; the
 * report is built from the ledger and says which tasks this run ran.
 */
export async function runPlan(plan: Plan, options: RunPlanOptions): Promise<RunReport> {
  const { ledger } = options;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${newId('r').slice(-6)}`;
  const logger = options.logger ?? getLogger();
  const onEvent = options.onEvent ?? (() => {});
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, signal ? { signal } : {}));
  const leaseMs = options.leaseMs ?? DEFAULT_TASK_LEASE_MS;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const pollMs = options.pollMs ?? Math.max(20, Math.min(500, Math.floor(leaseMs / 4)));
  const breaker = new CircuitBreaker({ ledger, owner, settings: options.breaker ?? {}, now });
  const chain: ProviderChainOptions = {
    ledger,
    owner,
    now,
    sleep,
    onEvent,
    providers: options.providers,
    breaker,
    workspace: options.workspace,
    cwd: options.workspaceDir,
    agentTimeoutMs: options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
    preContext: options.preContext ?? DEFAULT_PRE_CONTEXT_SETTINGS,
    maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
    logger,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const claimed: Omit<RunClaimedOptions, 'maxAttempts'> = {
    chain,
    helperProviders: options.helperProviders ?? options.providers,
    leaseMs,
    recentHistoryWindow: options.recentHistoryWindow ?? DEFAULT_RECENT_HISTORY_WINDOW,
    checkTimeoutMs: options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    ...(options.sites ? { sites: options.sites } : {}),
  };

  /** Each task as its upsert returned it: a first look right after needs no read. */
  const upserted = new Map<string, Task>();
  for (const planTask of plan.tasks) upserted.set(planTask.id, await ledger.upsertTask(toNewTask(planTask)));
  const final = new Map<string, TaskStatus>();
  /** The status each task had when this run last saw it. */
  const seen = new Map<string, TaskStatus>();
  const running = new Map<string, Promise<void>>();
  const announced = new Map<string, string>();
  const byId = new Map(plan.tasks.map((t) => [t.id, t]));

  const start = (planTask: PlanTask, task: Task) => {
    const maxAttempts = planTask.maxRetries ?? options.maxRetries ?? DEFAULT_MAX_ATTEMPTS;
    const run = runClaimedTask(task, { ...claimed, maxAttempts })
      .then((done) => {
        seen.set(done.id, done.status);
        if (FINAL.has(done.status)) final.set(done.id, done.status);
      })
      .catch((error: unknown) => {
        logger.error({ err: error, taskId: task.id }, 'task run failed');
      })
      .finally(() => running.delete(task.id));
    running.set(task.id, run);
  };

  while (!options.signal?.aborted) {
    let open = 0;
    for (const planTask of plan.tasks) {
      if (options.signal?.aborted) break;
      if (final.has(planTask.id)) continue;
      open += 1;
      if (running.has(planTask.id) || running.size >= concurrency) continue;
      const deps = planTask.dependsOn.map((id) => final.get(id));
      const failedDep = planTask.dependsOn.find((id) => {
        const status = final.get(id);
        return status === 'blocked' || status === 'archived';
      });
      const task = upserted.get(planTask.id) ?? (await ledger.getTask(planTask.id));
      upserted.delete(planTask.id);
      if (!task) continue;
      seen.set(task.id, task.status);
      if (FINAL.has(task.status)) {
        final.set(task.id, task.status);
        continue;
      }
      if (failedDep) {
        const reason = `Dependency "${failedDep}" is ${final.get(failedDep)}`;
        await ledger.updateTask(task.id, { status: 'blocked', blockReason: reason });
        final.set(task.id, 'blocked');
        onEvent({ type: 'task-end', taskId: task.id, status: 'blocked', reason });
        continue;
      }
      // Dependencies not finished yet (here or in another run): come back to it.
      if (deps.some((s) => s !== 'completed')) continue;
      const claim = await ledger.claimTask(task.id, owner, leaseMs);
      if (!claim.ok) {
        if (announced.get(task.id) !== claim.holder.owner) {
          announced.set(task.id, claim.holder.owner);
          onEvent({ type: 'claim-wait', taskId: task.id, holder: claim.holder.owner, untilMs: claim.holder.leaseUntil });
        }
        continue;
      }
      // Re-read after the claim: the holder we waited for may have finished the task.
      const fresh = await ledger.getTask(task.id);
      if (fresh) seen.set(fresh.id, fresh.status);
      if (!fresh || FINAL.has(fresh.status)) {
        await ledger.releaseTask(task.id, owner).catch(() => false);
        const status = fresh?.status ?? 'archived';
        final.set(task.id, status);
        onEvent({ type: 'task-skip', taskId: task.id, status, reason: `${status} by another run` });
        continue;
      }
      start(planTask, fresh);
    }
    // Only the first pass, right after the upserts, may take a task's state from them.
    upserted.clear();
    if (open === 0 && running.size === 0) break;
    // Wait for one of ours to finish, or look again shortly for work other runs left.
    // A real timer, not options.sleep: an injected sleep may return at once (tests' fake clocks).
    const tick = delay(pollMs, undefined, options.signal ? { signal: options.signal } : {}).catch(() => undefined);
    await Promise.race(running.size > 0 ? [...running.values(), tick] : [tick]);
  }
  await Promise.allSettled([...running.values()]);
  await options.sites?.finish?.();
  if (options.report === false) {
    return { tasks: [...byId.keys()].map((id) => ({ id, status: final.get(id) ?? seen.get(id) ?? 'missing', attempts: [] })) };
  }
  // Tasks that only exist in the plan keep their plan order in the report.
  return buildRunReport(ledger, [...byId.keys()], { owner });
}

function toNewTask(t: PlanTask) {
  return {
    id: t.id,
    title: t.title,
    instructions: t.instructions,
    intent: t.intent,
    acceptanceCriteria: t.acceptanceCriteria,
    dependsOn: t.dependsOn,
    options: t.options,
    priority: t.priority,
    ...(t.agentMode === undefined ? {} : { mode: t.agentMode }),
  };
}
