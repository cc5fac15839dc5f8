import { counter, gauge } from '../observability/index.js';

/** Prometheus metrics of the queue and its workers. */
export const queueMetrics = () => ({
  tasks: counter('baton_queue_tasks_total', 'Task jobs a worker finished, by the task status they left', ['status']),
  stalled: counter('baton_queue_stalled_total', 'Jobs found stalled (their worker died or hung) and handed to another worker'),
  jobs: gauge('baton_queue_jobs', 'Jobs in the queue by state (waiting, active, delayed, completed, failed)', ['state']),
  workers: gauge('baton_queue_workers', 'Live workers connected to the queue'),
});
