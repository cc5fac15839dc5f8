export { buildRunReport } from './build-run-report.js';
export { CircuitBreaker } from './circuit-breaker.js';
export { claimHolderState } from './claim-holder.js';
export { DEFAULT_BREAKER_SETTINGS, DEFAULT_TASK_LEASE_MS } from './defaults.js';

export { loadPlan, parsePlan } from './load-plan.js';

export { runCheck } from './run-check.js';
export { runPlan } from './run-plan.js';
export { sessionRefresher } from './session-refresher.js';

export { TASK_RUN_RETRIES, TASK_RUN_RETRY_MS } from './task-scheduler.js';
export { toNewTask } from './to-new-task.js';
export { workspaceOps } from './workspace-ops.js';
export type { RunReport, RunReportAttempt, RunReportTask } from './build-run-report.js';
export type { CircuitBreakerOptions } from './circuit-breaker.js';

export type { Plan, PlanTask } from './plan-types.js';

export type { RunPlanOptions } from './run-plan.js';
export type { LandedResult, SiteOutcome, TaskSite, TaskSites } from './task-site.js';

export type { BreakerSettings, CheckRun, EventSink, FileChanges, SupervisorEvent, WorkspaceOps } from './types.js';
