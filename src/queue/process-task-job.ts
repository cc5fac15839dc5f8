import { DelayedError, type Job, type Queue, Worker } from 'bullmq';
import type { RemoteSites } from '../isolation/index.js';
import type { Ledger } from '../ledger/index.js';
import type { Logger } from '../observability/index.js';
import { type RunPlanOptions, runPlan, type TaskSites } from '../supervisor/index.js';
import { DEFAULT_GATE_DELAY_MS } from './defaults.js';
import type { TaskJobData, TaskJobResult } from './job-data.js';
import { queueMetrics } from './queue-metrics.js';

/**
 * @default 5_000: while every provider's breaker is open the queue is paused at most this long at
 * a time, then the breakers are read again (one closed early, by a probe elsewhere, resumes it).
 * `TaskJobContext.breakerRecheckMs` (a worker's `BATON_QUEUE_BREAKER_RECHECK_MS`) overrides it.
 */
export const BREAKER_RECHECK_MS = 5_000;

export interface TaskJobContext {
  ledger: Ledger;
  queue: Queue;
  sites: RemoteSites;
  /** The worker's clone. */
  repoDir: string;
  owner: string;
  /** Everything runPlan needs besides the ledger, the sites and the owner. */
  run: Omit<RunPlanOptions, 'ledger' | 'sites' | 'owner' | 'concurrency' | 'workspace' | 'workspaceDir'>;
  logger: Logger;
  /** This worker's clone failed the job (its error says how): the job was handed back; the worker leaves the rotation. */
  onCloneFault: (why: string) => void;
  /** @default BREAKER_RECHECK_MS */
  breakerRecheckMs?: number;
}

/**
 * What a worker does with one task job: while every provider's breaker is open the queue is
 * rate-limited (no busy wait); a job whose dependencies are not completed is delayed, one whose
 * dependency is blocked blocks its task; otherwise the task runs through the supervisor's control
 * loop (claim, attempts, validation, integration) in a worktree of the worker's clone. When that
 * clone fails (see runOnClone), the job is handed back and `onCloneFault` told.
 */
export function taskJobProcessor(
  context: TaskJobContext,
): (job: Job<TaskJobData, TaskJobResult>, token?: string) => Promise<TaskJobResult> {
  const { ledger, owner } = context;
  const providers = context.run.providers.map((p) => p.name);
  const recheckMs = context.breakerRecheckMs ?? BREAKER_RECHECK_MS;
  return async (job, token) => {
    const { task } = job.data;
    const until = await allBreakersOpenUntil(ledger, providers);
    if (until !== undefined) {
      const at = new Date(until).toISOString();
      context.logger.warn({ until: at, providers }, `every provider's circuit breaker is open: workers take no tasks until ${at}`);
      await context.queue.rateLimit(Math.max(1, Math.min(until - Date.now(), recheckMs)));
      throw Worker.RateLimitError();
    }
    for (const dep of task.dependsOn) {
      const status = (await ledger.getTask(dep))?.status;
      if (status === 'blocked' || status === 'archived') {
        await ledger.updateTask(task.id, { status: 'blocked', blockReason: `Dependency "${dep}" is ${status}` });
        return { taskId: task.id, status: 'blocked', worker: owner };
      }
      if (status !== 'completed') {
        // The dependency gate: come back later, without holding a worker slot.
        await job.moveToDelayed(Date.now() + DEFAULT_GATE_DELAY_MS, token);
        throw new DelayedError();
      }
    }
    const ran = await runOnClone(job, context);
    if ('fault' in ran) {
      // Not the task's failure: the job goes back, undelayed and without using up a delivery,
      // for a worker whose clone works; this one leaves the rotation.
      context.onCloneFault(ran.fault);
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    queueMetrics().tasks.inc({ status: ran.status });
    return { taskId: task.id, status: ran.status, worker: owner };
  };
}

/**
 * Runs the job's task through runPlan in a worktree of this worker's clone. An error of the
 * clone itself (the job's remote missing or unreachable from it, a worktree that cannot be
 * made) stops the run at once, before any agent, and comes back as `fault`.
 */
async function runOnClone(job: Job<TaskJobData, TaskJobResult>, context: TaskJobContext): Promise<{ status: string } | { fault: string }> {
  const { task } = job.data;
  let sites: TaskSites;
  try {
    sites = await context.sites.forBranch(job.data.remote, job.data.runBranch, job.data.startTip);
  } catch (error) {
    return { fault: (error as Error).message };
  }
  const stop = new AbortController();
  let fault: string | undefined;
  const guarded: TaskSites = {
    open: (t) =>
      sites.open(t).catch((error: unknown) => {
        fault = `could not open a worktree for task ${t.id} in ${context.repoDir}: ${(error as Error).message}`;
        stop.abort(new Error(fault));
        throw error;
      }),
  };
  const outer = context.run.signal;
  const report = await runPlan(
    // Dependencies were checked above; runPlan sees the task alone.
    { tasks: [{ ...task, dependsOn: [] }] },
    {
      // The site gives each task its worktree's workspace; this one is never used.
      workspace: NO_WORKSPACE,
      workspaceDir: context.repoDir,
      ...context.run,
      ...(job.data.maxRetries ? { maxRetries: job.data.maxRetries } : {}),
      ledger: context.ledger,
      owner: context.owner,
      sites: guarded,
      concurrency: 1,
      signal: outer ? AbortSignal.any([outer, stop.signal]) : stop.signal,
      // The job's result needs only the task's status.
      report: false,
    },
  );
  // runPlan imports before each try's prompt (refreshSessions); once more now, so the native session
  // of the task's last try is in the ledger (linked to its task) when the job ends, not at the next job.
  await context.run
    .refreshSessions?.()
    .catch((error: unknown) => context.logger.warn({ err: error, taskId: task.id }, 'session import failed'));
  return fault ? { fault } : { status: report.tasks[0]?.status ?? 'missing' };
}

const NO_WORKSPACE: RunPlanOptions['workspace'] = {
  snapshot: async () => undefined,
  diff: () => ({ created: [], updated: [], deleted: [] }),
  runCheck: async () => ({ ok: false, output: 'no workspace' }),
};

/** The earliest reset when every provider's breaker is open (shared through the ledger), else undefined. */
async function allBreakersOpenUntil(ledger: Ledger, providers: readonly string[]): Promise<number | undefined> {
  if (providers.length === 0) return undefined;
  const now = Date.now();
  let earliest: number | undefined;
  for (const name of providers) {
    const breaker = await ledger.getBreaker(name);
    if (breaker?.state !== 'open' || breaker.until === undefined || breaker.until <= now) return undefined;
    earliest = Math.min(earliest ?? breaker.until, breaker.until);
  }
  return earliest;
}
