import { hostname } from 'node:os';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type CommitPolicy, createRemoteSites, type RemoteSites } from '../isolation/index.js';
import { type Ledger, newId } from '../ledger/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import { type RunPlanOptions, runPlan, type TaskSites } from '../supervisor/index.js';
import { DEFAULT_GATE_DELAY_MS, DEFAULT_QUEUE_LOCK_MS, DEFAULT_STALLED_INTERVAL_MS, QUEUE_NAME, stalledCounterKey } from './defaults.js';
import type { TaskJobData, TaskJobResult } from './job-data.js';
import { outageLog } from './outage-log.js';
import { queueMetrics } from './queue-metrics.js';
import { redisBranchLock } from './redis-branch-lock.js';

export interface QueueWorkerOptions {
  connection: Redis;
  prefix: string;
  ledger: Ledger;
  /** The worker's clone of the repository. */
  repoDir: string;
  /** Jobs run at once. @default 1 */
  concurrency?: number;
  /** @default DEFAULT_QUEUE_LOCK_MS */
  lockMs?: number;
  /** @default DEFAULT_STALLED_INTERVAL_MS */
  stalledIntervalMs?: number;
  /** While every breaker is open, how long the queue is paused before they are read again. @default BREAKER_RECHECK_MS */
  breakerRecheckMs?: number;
  /** Everything runPlan needs besides the ledger, sites and owner (providers, timeouts, …). */
  run: Omit<RunPlanOptions, 'ledger' | 'sites' | 'owner' | 'concurrency' | 'workspace' | 'workspaceDir'>;
  keepWorktrees?: boolean;
  /** @default DEFAULT_COMMIT_POLICY */
  commitPolicy?: CommitPolicy;
  logger?: Logger;
}

export interface QueueWorker {
  /** `worker:<host>:<pid>:<id>`: recorded as claimed_by on every dispatch it makes. */
  readonly owner: string;
  /**
   * Resolves, saying why, when this worker took itself out of the rotation: its clone failed a
   * job (the job's remote missing or unreachable from it, a worktree that could not be made). The
   * job went back to the queue for another worker; this one takes no more. Never rejects.
   */
  readonly outOfRotation: Promise<string>;
  /** Graceful: stops taking jobs and lets the running ones finish. */
  close(): Promise<void>;
}

/**
 * `baton worker`: takes task jobs from the BullMQ queue and runs each through the supervisor's
 * control loop (claim in the ledger, attempts, validation) in a worktree of this clone, with the
 * result integrated through the remote under a Redis lock per branch. A worker that dies loses its
 * job lock: BullMQ's stalled check gives the job to another worker, whose claim succeeds once the
 * dead worker's ledger lease lapses and which marks the cut-short attempt interrupted and resumes.
 * @throws BatonError INPUT_INVALID when `repoDir` is not in a git repository (the worker does not start)
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const logger = options.logger ?? getLogger();
  const owner = `worker:${hostname()}:${process.pid}:${newId('w').slice(-6)}`;
  const { connection, prefix } = options;
  const lock = redisBranchLock({ connection, prefix, logger });
  const sites = await createRemoteSites({
    repoDir: options.repoDir,
    keepWorktrees: Boolean(options.keepWorktrees),
    ...(options.commitPolicy ? { commitPolicy: options.commitPolicy } : {}),
    lock,
    logger,
  }).catch((error: unknown) => {
    lock.close();
    throw error;
  });
  // The queue's own rate limit pauses every worker when no provider can run.
  const queue = new Queue(QUEUE_NAME, { connection, prefix });
  // The worker leaves the rotation once (its clone failed a job): logged, closed, outOfRotation resolved with why.
  let leftWith: (why: string) => void = () => {};
  const outOfRotation = new Promise<string>((resolve) => {
    leftWith = resolve;
  });
  let left = false;
  const onCloneFault = (why: string) => {
    if (left) return;
    left = true;
    logger.error(
      { owner, repoDir: options.repoDir },
      `this worker's clone failed a job, which goes back to the queue; the worker takes no more jobs: ${why}`,
    );
    // Not awaited: close waits for the running jobs, the failing one among them.
    void worker.close().finally(() => leftWith(why));
  };
  const processor = taskJobProcessor(options, { queue, sites, owner, logger, onCloneFault });
  const lockMs = options.lockMs ?? DEFAULT_QUEUE_LOCK_MS;
  const stalledMs = options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS;
  const worker = new Worker<TaskJobData, TaskJobResult>(QUEUE_NAME, processor, {
    connection,
    prefix,
    concurrency: Math.max(1, options.concurrency ?? 1),
    lockDuration: lockMs,
    stalledInterval: stalledMs,
    // A stalled job is given to another worker many times rather than failed: the ledger keeps it exactly once.
    maxStalledCount: 100,
    name: owner,
  });
  logWorkerEvents(worker, { connection, prefix, logger, lockMs, stalledMs });
  await worker.waitUntilReady();
  logger.info({ owner, concurrency: options.concurrency ?? 1 }, 'baton worker ready');
  return {
    owner,
    outOfRotation,
    close: async () => {
      await worker.close();
      await queue.close();
      await sites.close();
      lock.close();
    },
  };
}

/** The worker's stalled jobs, failed jobs and errors, logged (a Redis outage as one line, see outageLog). */
function logWorkerEvents(
  worker: Worker<TaskJobData, TaskJobResult>,
  context: { connection: Redis; prefix: string; logger: Logger; lockMs: number; stalledMs: number },
): void {
  const { connection, prefix, logger } = context;
  const outage = outageLog(connection, logger);
  worker.on('stalled', (jobId) => {
    queueMetrics().stalled.inc();
    connection.incr(stalledCounterKey(prefix)).catch(() => undefined);
    // A job lock that lapsed while Redis was away is not a dead worker.
    const lapsed = outage.recent(2 * (context.lockMs + context.stalledMs));
    logger.warn(
      { jobId },
      `job stalled (${lapsed ? 'its lock lapsed while Redis was unreachable' : 'its worker died or hung'}); it goes to another worker`,
    );
  });
  worker.on('failed', (job, error) => logger.error({ jobId: job?.id, err: error }, 'task job failed'));
  worker.on('error', (error) => outage.error(error));
}

/**
 * @default 5_000: while every provider's breaker is open the queue is paused at most this long at
 * a time, then the breakers are read again (one closed early, by a probe elsewhere, resumes it).
 * `QueueWorkerOptions.breakerRecheckMs` (a worker's `BATON_QUEUE_BREAKER_RECHECK_MS`) overrides it.
 */
export const BREAKER_RECHECK_MS = 5_000;

/** What startQueueWorker gives each job besides its options. */
interface TaskJobContext {
  queue: Queue;
  sites: RemoteSites;
  owner: string;
  logger: Logger;
  /** This worker's clone failed the job (its error says how): the job was handed back; the worker leaves the rotation. */
  onCloneFault: (why: string) => void;
}

/**
 * What a worker does with one task job: while every provider's breaker is open the queue is
 * rate-limited (no busy wait); a job whose dependencies are not completed is delayed, one whose
 * dependency is blocked blocks its task; otherwise the task runs through the supervisor's control
 * loop (claim, attempts, validation, integration) in a worktree of the worker's clone. When that
 * clone fails (see runOnClone), the job is handed back and `onCloneFault` told.
 */
function taskJobProcessor(
  options: QueueWorkerOptions,
  context: TaskJobContext,
): (job: Job<TaskJobData, TaskJobResult>, token?: string) => Promise<TaskJobResult> {
  const { ledger } = options;
  const { owner } = context;
  const providers = options.run.providers.map((p) => p.name);
  const recheckMs = options.breakerRecheckMs ?? BREAKER_RECHECK_MS;
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
    const ran = await runOnClone(job, options, context);
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
async function runOnClone(
  job: Job<TaskJobData, TaskJobResult>,
  options: QueueWorkerOptions,
  context: TaskJobContext,
): Promise<{ status: string } | { fault: string }> {
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
        fault = `could not open a worktree for task ${t.id} in ${options.repoDir}: ${(error as Error).message}`;
        stop.abort(new Error(fault));
        throw error;
      }),
  };
  const outer = options.run.signal;
  const report = await runPlan(
    // Dependencies were checked above; runPlan sees the task alone.
    { tasks: [{ ...task, dependsOn: [] }] },
    {
      // The site gives each task its worktree's workspace; this one is never used.
      workspace: NO_WORKSPACE,
      workspaceDir: options.repoDir,
      ...options.run,
      ...(job.data.maxRetries ? { maxRetries: job.data.maxRetries } : {}),
      ledger: options.ledger,
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
  await options.run
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
