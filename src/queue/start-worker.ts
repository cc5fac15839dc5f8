import { hostname } from 'node:os';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type CommitPolicy, createRemoteSites } from '../isolation/index.js';
import { type Ledger, newId } from '../ledger/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import type { RunPlanOptions } from '../supervisor/index.js';
import { DEFAULT_QUEUE_LOCK_MS, DEFAULT_STALLED_INTERVAL_MS, QUEUE_NAME, stalledCounterKey } from './defaults.js';
import type { TaskJobData, TaskJobResult } from './job-data.js';
import { taskJobProcessor } from './process-task-job.js';
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
  const processor = taskJobProcessor({
    ledger: options.ledger,
    queue,
    sites,
    repoDir: options.repoDir,
    owner,
    run: options.run,
    logger,
    onCloneFault,
    ...(options.breakerRecheckMs === undefined ? {} : { breakerRecheckMs: options.breakerRecheckMs }),
  });
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
