export { buildRunReport } from './build-run-report.js';
export { CircuitBreaker } from './circuit-breaker.js';
export { claimHolderState } from './claim-holder.js';
export {
  ALL_PROVIDERS_OPEN,
  DEFAULT_AGENT_TIMEOUT_MS,
  DEFAULT_AUTH_COOL_DOWN_MS,
  DEFAULT_BREAKER_SETTINGS,
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_COOL_DOWN_MS,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_PROBE_LEASE_MS,
  DEFAULT_QUOTA_COOL_DOWN_MS,
  NO_PROVIDER,
} from './defaults.js';
export { endStaleAgentGroups } from './end-stale-agents.js';
export { loadPlan, parsePlan } from './load-plan.js';
export { orderTasks } from './order-tasks.js';
export { parseHelperCommands } from './parse-helper-commands.js';
export { runProviderChain } from './provider-chain.js';
export { DEFAULT_CHECK_OUTPUT_CAP_BYTES, runCheck } from './run-check.js';
export { runPlan } from './run-plan.js';
export { FLAGGED_PREFIX, MAX_CONFLICT_RERUNS } from './site-completion.js';
export { TASK_RUN_RETRIES, TASK_RUN_RETRY_MS } from './task-scheduler.js';
export { toNewTask } from './to-new-task.js';
export { workspaceOps } from './workspace-ops.js';
export type { RunReport, RunReportAttempt, RunReportTask } from './build-run-report.js';
export type { BreakerDecision, CircuitBreakerOptions } from './circuit-breaker.js';
export type { EndedAgent, EndStaleAgentsOptions } from './end-stale-agents.js';
export type { HelperCommand } from './parse-helper-commands.js';
export type { Plan, PlanTask } from './plan-types.js';
export type { ChainRequest, ChainResult, ProviderChainOptions } from './provider-chain.js';
export type { RunCheckOptions } from './run-check.js';
export type { RunPlanOptions } from './run-plan.js';
export type { LandedResult, SiteOutcome, TaskSite, TaskSites } from './task-site.js';
export type { CompletionGate } from './completion-gate.js';
export type { BreakerSettings, CheckRun, EventSink, FileChanges, SupervisorEvent, WorkspaceOps } from './types.js';
