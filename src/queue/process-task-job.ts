import { DelayedError, type Job, type Queue, Worker } from 'bullmq';
import type { RemoteSites } from '../isolation/index.js';
import type { Ledger } from '../ledger/index.js';
import type { Logger } from '../observability/index.js';
import { type RunPlanOptions, runPlan } from '../supervisor/index.js';
import { DEFAULT_GATE_DELAY_MS } from './defaults.js';
import type { TaskJobData, TaskJobResult } from './job-data.js';
import { queueMetrics } from './queue-metrics.js';

/**
 * @default 5_000: while every provider's breaker is open the queue is paused at most this long at
 * a time, then the breakers are read again (one closed early, by a probe elsewhere, resumes it).
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
}

/**
 * What a worker does with one task job: while every provider's breaker is open the queue is
 * rate-limited (no busy wait); a job whose dependencies are not completed is delayed, one whose
 * dependency is blocked blocks its task; otherwise the task runs through the supervisor's control
 * loop (claim, attempts, validation, integration) in a worktree of the worker's clone.
 */
export function taskJobProcessor(
  context: TaskJobContext,
): (job: Job<TaskJobData, TaskJobResult>, token?: string) => Promise<TaskJobResult> {
  const { ledger, owner } = context;
  const providers = context.run.providers.map((p) => p.name);
  return async (job, token) => {
    const { task } = job.data;
    const until = await allBreakersOpenUntil(ledger, providers);
    if (until !== undefined) {
      const at = new Date(until).toISOString();
      context.logger.warn({ until: at, providers }, `every provider's circuit breaker is open: workers take no tasks until ${at}`);
      await context.queue.rateLimit(Math.max(1, Math.min(until - Date.now(), BREAKER_RECHECK_MS)));
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
    const report = await runPlan(
      // Dependencies were checked above; runPlan sees the task alone.
      { tasks: [{ ...task, dependsOn: [] }] },
      {
        // The site gives each task its worktree's workspace; this one is never used.
        workspace: NO_WORKSPACE,
        workspaceDir: context.repoDir,
        ...context.run,
        ...(job.data.maxRetries ? { maxRetries: job.data.maxRetries } : {}),
        ledger,
        owner,
        sites: await context.sites.forBranch(job.data.remote, job.data.runBranch, job.data.startTip),
        concurrency: 1,
        // The job's result needs only the task's status.
        report: false,
      },
    );
    const status = report.tasks[0]?.status ?? 'missing';
    queueMetrics().tasks.inc({ status });
    return { taskId: task.id, status, worker: owner };
  };
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
