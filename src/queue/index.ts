export { queueConnection } from './connection.js';
export { DEFAULT_QUEUE_LOCK_MS, DEFAULT_STALLED_INTERVAL_MS, QUEUE_NAME, queuePrefix } from './defaults.js';
export { enqueuePlan } from './enqueue-plan.js';
export { failedTaskJobs } from './failed-task-jobs.js';

export { readQueueStatus } from './queue-status.js';
export { redisBranchLock } from './redis-branch-lock.js';
export { startQueueWorker } from './start-worker.js';
export { waitForTasks } from './wait-for-tasks.js';

export type { QueueStatus } from './queue-status.js';

export { mountQueueDashboard } from './queue-dashboard.js';
