import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME } from './defaults.js';
import type { TaskJobData } from './job-data.js';

/** Reads which of a queued run's jobs failed for good. */
export interface FailedTaskJobs {
  /**
   * The tasks whose jobs failed for good (every delivery threw: BullMQ moves a job to `failed`
   * only when its attempts are used up), with why the last delivery failed.
   */
  read(): Promise<Map<string, string>>;
  close(): Promise<void>;
}

export function failedTaskJobs(connection: Redis, prefix: string, runId: string): FailedTaskJobs {
  const queue = new Queue<TaskJobData>(QUEUE_NAME, { connection, prefix });
  return {
    async read() {
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
