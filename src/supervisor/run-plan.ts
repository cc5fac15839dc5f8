import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Ledger, Task } from '../ledger/index.js';
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
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_WAIT_MS,
} from './defaults.js';
import type { Plan, PlanTask } from './plan-types.js';
import type { ProviderChainOptions } from './provider-chain.js';
import { endStaleAgentGroups } from './end-stale-agents.js';
import { runTask } from './run-task.js';
import type { BreakerSettings, EventSink, SupervisorDeps, WorkspaceOps } from './types.js';

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
  /** Task claim lease. @default DEFAULT_TASK_LEASE_MS */
  leaseMs?: number;
  /** @default `<host>:<pid>:<random>` */
  owner?: string;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
  onEvent?: EventSink;
  signal?: AbortSignal;
}

/**
 * The control loop: upserts the plan's tasks into the ledger and runs them in dependency order.
 * Each task is claimed with a lease (renewed while it runs); a task whose dependency is blocked is
 * blocked too. Resume: after claiming a task, its `running` dispatches left by a crashed run are
 * marked interrupted and the attempts continue after them, with context. Completed and blocked
 * tasks are not rerun. Returns the run report built from the ledger.
 */
export async function runPlan(plan: Plan, options: RunPlanOptions): Promise<RunReport> {
  const { ledger } = options;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${newId('r').slice(-6)}`;
  const logger = options.logger ?? getLogger();
  const onEvent = options.onEvent ?? (() => {});
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, signal ? { signal } : {}));
  const leaseMs = options.leaseMs ?? DEFAULT_TASK_LEASE_MS;
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
  const helperChain = { ...chain, providers: options.helperProviders ?? options.providers };

  for (const planTask of plan.tasks) await ledger.upsertTask(toNewTask(planTask));
  for (const planTask of plan.tasks) {
    if (options.signal?.aborted) break;
    const task = await ledger.getTask(planTask.id);
    if (!task || task.status === 'completed' || task.status === 'blocked' || task.status === 'archived') continue;
    const blockedDep = await firstUnfinishedDependency(ledger, task);
    if (blockedDep) {
      const reason = `Dependency "${blockedDep.id}" is ${blockedDep.status === 'blocked' ? 'blocked' : 'not completed'}`;
      await ledger.updateTask(task.id, { status: 'blocked', blockReason: reason });
      onEvent({ type: 'task-end', taskId: task.id, status: 'blocked', reason });
      continue;
    }
    if (!(await claimWithWait(ledger, task.id, owner, leaseMs, { now, sleep, onEvent, signal: options.signal }))) {
      logger.warn({ taskId: task.id }, 'task is claimed by another live runner; skipped');
      continue;
    }
    const renew = setInterval(() => {
      ledger.claimTask(task.id, owner, leaseMs).catch((error) => logger.warn({ err: error, taskId: task.id }, 'lease renewal failed'));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    try {
      await endStaleAgentGroups(ledger, task.id, { logger, onEvent });
      const interrupted = await ledger.markInterrupted({ taskId: task.id });
      if (interrupted.length > 0) logger.warn({ taskId: task.id, dispatches: interrupted.map((d) => d.id) }, 'resumed: marked unfinished dispatches interrupted');
      const firstAttempt = (await highestAttempt(ledger, task.id)) + 1;
      const running = await ledger.updateTask(task.id, { status: 'in_progress' });
      await runTask(running, {
        chain,
        helperChain,
        maxAttempts: planTask.maxRetries ?? options.maxRetries ?? DEFAULT_MAX_ATTEMPTS,
        firstAttempt,
        recentHistoryWindow: options.recentHistoryWindow ?? DEFAULT_RECENT_HISTORY_WINDOW,
        checkTimeoutMs: options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      });
    } finally {
      clearInterval(renew);
      await ledger.releaseTask(task.id, owner).catch(() => false);
    }
  }
  return buildRunReport(ledger, plan.tasks.map((t) => t.id));
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

async function firstUnfinishedDependency(ledger: Ledger, task: Task): Promise<Task | undefined> {
  for (const id of task.dependsOn) {
    const dep = await ledger.getTask(id);
    if (dep?.status !== 'completed') return dep ?? { ...task, id, status: 'pending' };
  }
  return undefined;
}

/**
 * Claims the task. A live lease held by someone else is waited out once, up to two leases long:
 * after a crash the dead run's lease lapses; a live runner renews it and keeps the task.
 */
async function claimWithWait(
  ledger: Ledger,
  taskId: string,
  owner: string,
  leaseMs: number,
  deps: Pick<SupervisorDeps, 'now' | 'sleep' | 'onEvent'> & { signal?: AbortSignal | undefined },
): Promise<boolean> {
  const deadline = deps.now() + leaseMs * 2;
  let announced = false;
  for (;;) {
    const claim = await ledger.claimTask(taskId, owner, leaseMs);
    if (claim.ok) return true;
    const wait = Math.min(claim.holder.leaseUntil - deps.now() + 10, deadline - deps.now());
    if (wait <= 0 || deps.signal?.aborted) return false;
    if (!announced) {
      deps.onEvent({ type: 'claim-wait', taskId, holder: claim.holder.owner, untilMs: claim.holder.leaseUntil });
      announced = true;
    }
    await deps.sleep(Math.min(wait, 1_000), deps.signal);
  }
}

async function highestAttempt(ledger: Ledger, taskId: string): Promise<number> {
  let highest = 0;
  let cursor: string | undefined;
  do {
    const page = await ledger.listDispatches({ taskId, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const d of page.items) highest = Math.max(highest, d.attempt);
    cursor = page.nextCursor;
  } while (cursor);
  return highest;
}
