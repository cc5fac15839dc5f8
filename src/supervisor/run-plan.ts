import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Ledger, Task } from '../ledger/index.js';
import { newId } from '../ledger/index.js';
import { BatonError } from '../errors/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import { type PreContextInput, resolvePreContextSettings } from '../precontext/index.js';
import type { Provider } from '../providers/index.js';
import { DEFAULT_AGENT_TIMEOUT_MS, DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_RECENT_HISTORY_WINDOW } from '../config/index.js';
import { buildRunReport, type RunReport } from './build-run-report.js';
import { checkRunPlanArgs } from './run-plan-schema.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { DEFAULT_MAX_WAIT_MS, DEFAULT_TASK_LEASE_MS } from './defaults.js';
import type { Plan } from './plan-types.js';
import type { ProviderChainOptions } from './provider-chain.js';
import type { RunClaimedOptions } from './run-claimed-task.js';
import type { TaskSites } from './task-site.js';
import { TaskScheduler } from './task-scheduler.js';
import { toNewTask } from './to-new-task.js';
import type { BreakerSettings, EventSink, WorkspaceOps } from './types.js';
import { workspaceOps } from './workspace-ops.js';
import { definedFields } from '../util/index.js';

export interface RunPlanOptions {
  ledger: Ledger;
  /** Providers in priority order. */
  providers: readonly Provider[];
  /** Providers for the helper agent. @default providers */
  helperProviders?: readonly Provider[];
  /** The folder agents work in and checks run in (relative: to the process's cwd). Must exist. */
  workspaceDir: string;
  /**
   * How a run is measured and checks are run. @default Baton's own (`workspaceOps(workspaceDir)`):
   * git-aware snapshots (a plain folder is hashed instead), checks run by the shell in workspaceDir
   */
  workspace?: WorkspaceOps;
  /**
   * Seed 000's switches: the builders' shape, or the config's (`config.preContext` as loadConfig
   * returns it). @default DEFAULT_PRE_CONTEXT_SETTINGS
   */
  preContext?: PreContextInput;
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
  /**
   * Runs before each try's prompt is built, so the prompt's agent CLI sessions are current: `baton
   * run` passes `sessionRefresher` (imports what is new in the CLIs' stores, bounded). A rejection
   * is logged and the prompt is built from what the ledger holds. @default none
   */
  refreshSessions?: () => Promise<void>;
}

/**
 * The control loop: upserts the plan's tasks into the ledger and runs them in dependency order,
 * up to `concurrency` at once. Several runs may share one plan and ledger: each task is claimed
 * with a lease (renewed while it runs) and its status re-read after the claim, so a task another
 * run completed is never run again, and a task held by a live run is left to it while this run
 * takes other work (or waits). A dead run's lease lapses and its task is resumed here: its
 * `running` dispatches are marked interrupted and the attempts continue after them, with
 * context. A task whose dependency is blocked is blocked too. A task whose run throws (its
 * worktree could not be made, the repository is gone) is run again after a backoff (about 1, 2
 * and 4 s: TASK_RUN_RETRIES), then recorded as a failed attempt naming the error and blocked with
 * it: nothing is restarted at once. Returns when every task of the plan is completed, blocked or
 * archived (by this run or others), or the signal aborts (within a poll: the running tasks' agents
 * are stopped by the same signal); the report is built from the ledger and says which tasks this
 * run ran.
 * @throws BatonError before anything is written: INPUT_INVALID for a plan with an unknown or
 *   misspelled key (`tasks[0] (id "a"): unknown key "acceptance_criteria" (did you mean
 *   "acceptanceCriteria"?)`), a missing field, an unknown dependency or a cycle; CONFIG_INVALID for
 *   an options object with an unknown key or a value of the wrong type, each named.
 *   WORKSPACE_NOT_SET when workspaceDir is not an existing folder; INPUT_INVALID for concurrency
 *   above 1 without `sites` (the tasks would share one folder).
 * @example
 * const report = await runPlan(await loadPlan('plan.yaml'), {
 *   ledger: await openLedger({ cwd: process.cwd() }),
 *   providers: [createCommandProvider('agent', { type: 'command', command: ['./agent.sh'] })],
 *   workspaceDir: process.cwd(),
 * });
 */
export async function runPlan(input: Plan, options: RunPlanOptions): Promise<RunReport> {
  const plan = checkRunPlanArgs(input, options);
  const workspaceDir = await checkWorkspace(options);
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
    workspace: options.workspace ?? workspaceOps(workspaceDir),
    cwd: workspaceDir,
    agentTimeoutMs: options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
    preContext: resolvePreContextSettings(options.preContext),
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
    ...definedFields({ sites: options.sites, refreshSessions: options.refreshSessions }),
  };

  /** Each task as its upsert returned it: a first look right after needs no read. */
  const upserted = new Map<string, Task>();
  for (const planTask of plan.tasks) upserted.set(planTask.id, await ledger.upsertTask(toNewTask(planTask)));
  const scheduler = new TaskScheduler(plan.tasks, upserted, {
    concurrency,
    pollMs,
    claimed,
    ...definedFields({ maxRetries: options.maxRetries }),
  });
  await scheduler.run();
  await options.sites?.finish?.();
  const ids = plan.tasks.map((t) => t.id);
  if (options.report === false) {
    return { tasks: ids.map((id) => ({ id, status: scheduler.final.get(id) ?? scheduler.seen.get(id) ?? 'missing', attempts: [] })) };
  }
  // Tasks that only exist in the plan keep their plan order in the report.
  return buildRunReport(ledger, ids, { owner });
}

/**
 * Fails at once, naming the field, for a workspace runPlan cannot run in: a workspaceDir that is
 * not an existing folder (each task's run would fail on it, again after each backoff), several
 * tasks at once sharing one folder. Returns workspaceDir, absolute.
 */
async function checkWorkspace(options: RunPlanOptions): Promise<string> {
  const given = options.workspaceDir;
  if (given.trim() === '')
    throw invalid('workspaceDir', `runPlan: workspaceDir must be the path of the folder agents work in; got ${given}`);
  const dir = path.resolve(given);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new BatonError(
      'WORKSPACE_NOT_SET',
      `runPlan: workspaceDir ${dir} ${info ? 'is not a folder' : 'does not exist'}: agents work and checks run in it, so it must be an existing folder`,
      { details: { field: 'workspaceDir', value: given } },
    );
  }
  const concurrency = options.concurrency ?? 1;
  if (concurrency > 1 && options.sites === undefined) {
    throw invalid(
      'concurrency',
      `runPlan: concurrency ${concurrency} needs sites (a working copy per task, such as git worktrees); without them tasks would share ${dir}`,
    );
  }
  return dir;
}

function invalid(field: string, message: string): BatonError {
  return new BatonError('INPUT_INVALID', message, { details: { field } });
}
