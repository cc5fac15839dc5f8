export { queueConnection } from './connection.js';
export { DEFAULT_GATE_DELAY_MS, DEFAULT_QUEUE_LOCK_MS, DEFAULT_STALLED_INTERVAL_MS, QUEUE_NAME, queuePrefix } from './defaults.js';
export { enqueuePlan, JOB_ATTEMPTS } from './enqueue-plan.js';
export { failedTaskJobs } from './failed-task-jobs.js';
export { BREAKER_RECHECK_MS } from './process-task-job.js';
export { readQueueStatus } from './queue-status.js';
export {
  BRANCH_LOCK_COMMAND_TIMEOUT_MS,
  DEFAULT_BRANCH_LOCK_TTL_MS,
  DEFAULT_BRANCH_LOCK_WAIT_MS,
  redisBranchLock,
} from './redis-branch-lock.js';
export { startQueueWorker } from './start-worker.js';
export { waitForTasks } from './wait-for-tasks.js';
export type { EnqueuePlanOptions } from './enqueue-plan.js';
export type { FailedTaskJobs } from './failed-task-jobs.js';
export type { WaitForTasksOptions } from './wait-for-tasks.js';
export type { TaskJobData, TaskJobResult } from './job-data.js';
export type { QueueStatus } from './queue-status.js';
export type { RedisBranchLock, RedisBranchLockOptions } from './redis-branch-lock.js';
export type { QueueWorker, QueueWorkerOptions } from './start-worker.js';
export { DASHBOARD_PACKAGES, mountQueueDashboard } from './queue-dashboard.js';
export type { QueueDashboard, QueueDashboardOptions } from './queue-dashboard.js';
