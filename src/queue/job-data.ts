import type { PlanTask } from '../supervisor/index.js';

/** What a queued task carries: enough for any worker with a clone to run it. */
export interface TaskJobData {
  runId: string;
  /** The branch results are integrated into, on the remote. */
  runBranch: string;
  remote: string;
  /** The commit the run started from (the producer pushed it): later tips must hold it. */
  startTip?: string;
  task: PlanTask;
  /** --max-retries of the producer, for tasks without their own. */
  maxRetries?: number;
}

/** What a finished job returns (BullMQ keeps it with the job). */
export interface TaskJobResult {
  taskId: string;
  status: string;
  worker: string;
}
