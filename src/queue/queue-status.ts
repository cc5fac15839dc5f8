import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME, stalledCounterKey } from './defaults.js';
import { queueMetrics } from './queue-metrics.js';

/** The job states a status counts. */
const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'] as const;

export interface QueueStatus {
  counts: Record<(typeof JOB_STATES)[number], number>;
  /** Live workers (BullMQ names each connection after its worker). */
  workers: string[];
  /** Jobs found stalled (a worker died) and handed on, counted by the workers in Redis. */
  stalled: number;
  /** How long the queue stays paused by the all-breakers-open rate limit; 0 when it is not. */
  pausedForMs: number;
}

/** The queue's job counts and live workers; also sets the Prometheus gauges. */
export async function readQueueStatus(connection: Redis, prefix: string): Promise<QueueStatus> {
  const queue = new Queue(QUEUE_NAME, { connection, prefix });
  try {
    const raw = await queue.getJobCounts(...JOB_STATES);
    const counts = Object.fromEntries(JOB_STATES.map((state) => [state, raw[state] ?? 0])) as QueueStatus['counts'];
    // BullMQ names a worker's connections `<prefix>:<queue, base64>:w:<worker name>`.
    const workers = [...new Set((await queue.getWorkers()).map((w) => workerName(String(w.rawname ?? ''))).filter(Boolean))];
    const stalled = Number((await connection.get(stalledCounterKey(prefix))) ?? 0);
    const pausedForMs = Math.max(0, await queue.getRateLimitTtl());
    const metrics = queueMetrics();
    for (const [state, n] of Object.entries(counts)) metrics.jobs.set({ state }, n);
    metrics.workers.set(workers.length);
    return { counts, workers, stalled, pausedForMs };
  } finally {
    await queue.close();
  }
}

function workerName(rawname: string): string {
  const at = rawname.indexOf(':w:');
  return at < 0 ? '' : rawname.slice(at + 3);
}
