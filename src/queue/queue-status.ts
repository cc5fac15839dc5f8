import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME } from './defaults.js';
import { queueMetrics } from './queue-metrics.js';

export interface QueueStatus {
  counts: { waiting: number; active: number; delayed: number; completed: number; failed: number; prioritized: number };
  /** Live workers (BullMQ names each connection after its worker). */
  workers: string[];
}

/** The queue's job counts and live workers; also sets the Prometheus gauges. */
export async function readQueueStatus(connection: Redis, prefix: string): Promise<QueueStatus> {
  const queue = new Queue(QUEUE_NAME, { connection, prefix });
  try {
    const raw = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
    const counts = {
      waiting: raw.waiting ?? 0,
      active: raw.active ?? 0,
      delayed: raw.delayed ?? 0,
      completed: raw.completed ?? 0,
      failed: raw.failed ?? 0,
      prioritized: raw.prioritized ?? 0,
    };
    const workers = [...new Set((await queue.getWorkers()).map((w) => String(w.rawname ?? w.name ?? '')).filter(Boolean))];
    const metrics = queueMetrics();
    for (const [state, n] of Object.entries(counts)) metrics.jobs.set({ state }, n);
    metrics.workers.set(workers.length);
    return { counts, workers };
  } finally {
    await queue.close();
  }
}
