import { hostname } from 'node:os';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRemoteSites, type RemoteSites } from '../isolation/index.js';
import { type Ledger, newId } from '../ledger/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import { type RunPlanOptions, runPlan, type TaskSites } from '../supervisor/index.js';
import { DEFAULT_GATE_DELAY_MS, DEFAULT_QUEUE_LOCK_MS, DEFAULT_STALLED_INTERVAL_MS, QUEUE_NAME, stalledCounterKey } from './defaults.js';
import type { TaskJobData, TaskJobResult } from './job-data.js';
import { queueMetrics } from './queue-metrics.js';
import { redisTurns } from './integration-turns.js';
import { takeNextEarly } from './take-next-early.js';

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
  /** Everything runPlan needs besides the ledger, sites and owner (providers, timeouts, …). */
  run: Omit<RunPlanOptions, 'ledger' | 'sites' | 'owner' | 'concurrency' | 'workspace' | 'workspaceDir'> &
    Partial<Pick<RunPlanOptions, 'workspace' | 'workspaceDir'>>;
  keepWorktrees?: boolean;
  logger?: Logger;
}

export interface QueueWorker {
  /** `worker:<host>:<pid>:<id>`: recorded as claimed_by on every dispatch it makes. */
  readonly owner: string;
  /** Graceful: stops taking jobs and lets the running ones finish. */
  close(): Promise<void>;
}

/**
 * `baton worker`: takes task jobs from the BullMQ queue and runs each through the supervisor's
 * control loop (claim in the ledger, attempts, validation) in a worktree of this clone, with the
 * result integrated through the remote. A job whose dependencies are not completed waits
 * (delayed); one whose dependency is blocked blocks the task. A worker that dies loses its job
 * lock: BullMQ's stalled check gives the job to another worker, whose claim succeeds once the dead
 * worker's ledger lease lapses and which marks the cut-short attempt interrupted and resumes.
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const logger = options.logger ?? getLogger();
  const owner = `worker:${hostname()}:${process.pid}:${newId('w').slice(-6)}`;
  const { ledger } = options;
  const remotes = new Map<string, RemoteSites>();
  const turns = redisTurns({ connection: options.connection, prefix: options.prefix, owner, logger });
  const sitesFor = async (remote: string): Promise<RemoteSites> => {
    let sites = remotes.get(remote);
    if (!sites) {
      sites = await createRemoteSites({
        repoDir: options.repoDir,
        remote,
        keepWorktrees: Boolean(options.keepWorktrees),
        logger,
        turns,
        ...(options.run.preContext ? { limits: options.run.preContext.limits } : {}),
        ...(options.run.onEvent ? { onEvent: options.run.onEvent } : {}),
      });
      remotes.set(remote, sites);
    }
    return sites;
  };
  // Set up (and prune stale worktrees) before taking any job.
  await sitesFor('origin').catch((error: unknown) => {
    logger.warn({ err: error }, 'remote "origin" not usable yet; jobs naming it will fail');
  });

  // The queue's own rate limit pauses every worker when no provider can run (no busy wait).
  const queue = new Queue(QUEUE_NAME, { connection: options.connection, prefix: options.prefix });
  const providerNames = options.run.providers.map((p) => p.name);

  const processJob = async (job: Job<TaskJobData, TaskJobResult>, token?: string): Promise<TaskJobResult> => {
    const { task } = job.data;
    const until = await allBreakersOpenUntil(ledger, providerNames);
    if (until !== undefined) {
      const ms = Math.max(1, until - Date.now());
      logger.warn(
        { until: new Date(until).toISOString(), providers: providerNames },
        `every provider's circuit breaker is open: workers take no tasks until ${new Date(until).toISOString()}`,
      );
      await queue.rateLimit(ms);
      throw Worker.RateLimitError();
    }
    for (const dep of task.dependsOn) {
      const status = (await ledger.getTask(dep))?.status;
      if (status === 'blocked' || status === 'archived') {
        const reason = `Dependency "${dep}" is ${status}`;
        await ledger.updateTask(task.id, { status: 'blocked', blockReason: reason });
        return { taskId: task.id, status: 'blocked', worker: owner };
      }
      if (status !== 'completed') {
        // The dependency gate: come back later, without holding a worker slot.
        await job.moveToDelayed(Date.now() + DEFAULT_GATE_DELAY_MS, token);
        throw new DelayedError();
      }
    }
    const sites = integratingSignal((await sitesFor(job.data.remote)).forBranch(job.data.runBranch), () => {
      if (token) early.integrating(token);
    });
    const report = await runPlan(
      // Dependencies were checked above; runPlan sees the task alone.
      { tasks: [{ ...task, dependsOn: [] }] },
      {
        workspace: {
          snapshot: async () => undefined,
          diff: () => ({ created: [], updated: [], deleted: [] }),
          runCheck: async () => ({ ok: false, output: 'no workspace' }),
        },
        workspaceDir: options.repoDir,
        ...options.run,
        ...(job.data.maxRetries ? { maxRetries: job.data.maxRetries } : {}),
        ledger,
        owner,
        sites,
        concurrency: 1,
        // The job's result needs only the task's status.
        report: false,
      },
    );
    const status = report.tasks[0]?.status ?? 'missing';
    queueMetrics().tasks.inc({ status });
    return { taskId: task.id, status, worker: owner };
  };

  const worker = new Worker<TaskJobData, TaskJobResult>(QUEUE_NAME, processJob, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: Math.max(1, options.concurrency ?? 1),
    lockDuration: options.lockMs ?? DEFAULT_QUEUE_LOCK_MS,
    stalledInterval: options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
    // A stalled job is given to another worker many times rather than failed: the ledger keeps it exactly once.
    maxStalledCount: 100,
    name: owner,
  });
  worker.on('stalled', (jobId) => {
    queueMetrics().stalled.inc();
    options.connection.incr(stalledCounterKey(options.prefix)).catch(() => undefined);
    logger.warn({ jobId }, 'job stalled (its worker died or hung); it goes to another worker');
  });
  worker.on('failed', (job, error) => logger.error({ jobId: job?.id, err: error }, 'task job failed'));
  worker.on('error', (error) => logger.error({ err: error }, 'queue worker error'));
  // Made before any job can run: the worker's first fetch awaits Redis.
  const early = takeNextEarly(worker, Math.max(1, options.concurrency ?? 1), logger);
  await worker.waitUntilReady();
  logger.info({ owner, concurrency: options.concurrency ?? 1 }, 'baton worker ready');
  return {
    owner,
    close: async () => {
      await early.close();
      await worker.close();
      await queue.close();
      for (const sites of remotes.values()) await sites.close();
      await turns.close?.();
    },
  };
}

/** Sites whose tasks call `integrating` once, when their first passing attempt starts to integrate. */
function integratingSignal(sites: TaskSites, integrating: () => void): TaskSites {
  let signalled = false;
  return {
    ...sites,
    open: async (task) => {
      const site = await sites.open(task);
      const complete = site.complete;
      if (!complete) return site;
      return {
        ...site,
        complete: (attempt, dispatch) => {
          if (!signalled) {
            signalled = true;
            integrating();
          }
          return complete(attempt, dispatch);
        },
      };
    },
  };
}

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
