import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME } from './defaults.js';
import type { TaskJobData } from './job-data.js';

/**
 * Reads which of a queued run's jobs failed for good: `read` gives their tasks (every delivery
 * threw: BullMQ moves a job to `failed` only when its attempts are used up), with why the last
 * delivery failed.
 */
export function failedTaskJobs(connection: Redis, prefix: string, runId: string) {
  const queue = new Queue<TaskJobData>(QUEUE_NAME, { connection, prefix });
  return {
    async read(): Promise<Map<string, string>> {
      const failed = new Map<string, string>();
      for (const job of await queue.getFailed(0, -1)) {
        if (job?.data?.runId !== runId) continue;
        failed.set(job.data.task.id, `${job.failedReason || 'failed'} (job ${job.id}, ${job.attemptsMade} deliveries)`);
      }
      return failed;
    },
    close: () => queue.close(),
  };
}
