import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { LedgerCore } from '../ledger/index.js';
import { safeRefPart } from '../isolation/index.js';
import { type Plan, toNewTask } from '../supervisor/index.js';
import { QUEUE_NAME } from './defaults.js';
import type { TaskJobData } from './job-data.js';

/** Deliveries of one job before BullMQ fails it (errors only; a task's own attempts are the ledger's). */
export const JOB_ATTEMPTS = 5;

/** Where the plan goes, and what every job of the run carries beside its task (TaskJobData). */
export interface EnqueuePlanOptions extends Omit<TaskJobData, 'task'> {
  connection: Redis;
  prefix: string;
  ledger: LedgerCore;
  plan: Plan;
}

/**
 * Records the plan's tasks in the ledger and puts every task that is not already completed,
 * blocked or archived on the queue, one job each (`<run>-<task>` ids, so enqueueing twice adds
 * nothing). Dependencies are gated by the workers: a job whose dependencies are not completed
 * yet is delayed and comes back. Returns the ids of the tasks it queued.
 */
export async function enqueuePlan(options: EnqueuePlanOptions): Promise<string[]> {
  const { ledger, plan } = options;
  const queue = new Queue<TaskJobData>(QUEUE_NAME, { connection: options.connection, prefix: options.prefix });
  try {
    const queued: string[] = [];
    const jobs = [];
    for (const task of plan.tasks) {
      const existing = await ledger.upsertTask(toNewTask(task));
      if (existing.status === 'completed' || existing.status === 'blocked' || existing.status === 'archived') continue;
      queued.push(task.id);
      jobs.push({
        name: 'task',
        data: {
          runId: options.runId,
          runBranch: options.runBranch,
          remote: options.remote,
          ...(options.startTip ? { startTip: options.startTip } : {}),
          task,
          ...(options.maxRetries ? { maxRetries: options.maxRetries } : {}),
        },
        // A job that throws (Redis unreachable for a moment, a git error) is tried again: the
        // ledger's claim and status re-read keep the task itself exactly once.
        opts: {
          jobId: `${options.runId}-${safeRefPart(task.id)}`,
          attempts: JOB_ATTEMPTS,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: { count: 10_000 },
          removeOnFail: { count: 10_000 },
        },
      });
    }
    if (jobs.length > 0) await queue.addBulk(jobs);
    return queued;
  } finally {
    await queue.close();
  }
}
