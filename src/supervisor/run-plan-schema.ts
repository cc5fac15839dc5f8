import * as z from 'zod';
import type { Ledger } from '../ledger/index.js';
import type { Logger } from '../observability/index.js';
import type { Provider } from '../providers/index.js';
import { abortSignalOption, functionOption, objectWithMethods, parseInput } from '../util/index.js';
import { describePlanPath } from './describe-plan-path.js';
import { orderTasks } from './order-tasks.js';
import { criterionObjectFileSchema, taskIdSchema } from './plan-schema.js';
import type { Plan } from './plan-types.js';
import type { TaskSites } from './task-site.js';
import type { EventSink, WorkspaceOps } from './types.js';

/**
 * The zod schemas of what runPlan takes from code: the plan (PlanTask's camelCase spelling; a
 * plan file's snake_case keys are unknown here and name the camelCase one) and the options. Built
 * once at module load; runPlan checks both before it writes to the ledger.
 */

/** A task as runPlan takes it. Fields a plan file may leave out get the same defaults as there. */
export const planTaskSchema = z.strictObject({
  id: taskIdSchema,
  title: z.string().optional(),
  instructions: z.string().min(1),
  intent: z.string().default(''),
  acceptanceCriteria: z.array(criterionObjectFileSchema).default([]),
  dependsOn: z.array(z.string().min(1)).default([]),
  maxRetries: z.number().int().min(1).max(50).optional(),
  options: z.record(z.string(), z.unknown()).default({}),
  agentMode: z.string().optional(),
  priority: z.number().int().default(0),
});

const runPlanPlanSchema = z.strictObject({
  file: z.string().optional(),
  tasks: z.array(planTaskSchema).min(1, 'a plan needs at least one task'),
});

const count = (min: number) => z.number().int().min(min);
const providerSchema = objectWithMethods<Provider>(['run'], 'a Provider (createProvider, createCommandProvider, ...)');
const providersSchema = z.array(providerSchema).min(1, 'at least one provider is needed');

export const preContextLimitsSchema = z.strictObject({
  maxLines: count(1).optional(),
  maxTokens: count(1).optional(),
  maxFiles: count(1).optional(),
  maxErrors: count(1).optional(),
  helperMaxAttempts: count(1).optional(),
});

/** PreContextInput: the builders' shape (limits nested) or the config's flat one, each part optional. */
export const preContextSchema = z.strictObject({
  enabled: z.boolean().optional(),
  types: z.array(z.enum(['circuit_breaker', 'retry', 'helper'])).optional(),
  limits: preContextLimitsSchema.optional(),
  maxLines: count(1).optional(),
  maxFiles: count(1).optional(),
  helperMaxAttempts: count(1).optional(),
});

export const breakerSchema = z.strictObject({
  coolDownMs: count(0).optional(),
  quotaCoolDownMs: count(0).optional(),
  authCoolDownMs: count(0).optional(),
  failureThreshold: count(1).optional(),
  probeLeaseMs: count(1).optional(),
});

export const breakerOptionsSchema = z.strictObject({
  ledger: objectWithMethods<Ledger>(['getBreaker'], 'a Ledger (from openLedger or new MemoryLedger())'),
  owner: z.string().min(1),
  settings: breakerSchema.optional(),
  now: functionOption<() => number>().optional(),
});

const reportOptionsSchema = z.strictObject({ owner: z.string().min(1).optional() });

/** buildRunReport's options. @throws BatonError CONFIG_INVALID naming each problem. */
export function checkReportOptions(options: unknown): void {
  parseInput(reportOptionsSchema, options, { what: 'buildRunReport options' });
}

/** CircuitBreaker's options. @throws BatonError CONFIG_INVALID naming each problem. */
export function checkBreakerOptions(options: unknown): void {
  parseInput(breakerOptionsSchema, options, { what: 'CircuitBreaker options' });
}

export const runPlanOptionsSchema = z.strictObject({
  ledger: objectWithMethods<Ledger>(['upsertTask', 'claimTask', 'appendDispatch'], 'a Ledger (from openLedger or new MemoryLedger())'),
  providers: providersSchema,
  helperProviders: providersSchema.optional(),
  workspace: objectWithMethods<WorkspaceOps>(['snapshot', 'diff', 'runCheck'], 'a WorkspaceOps ({ snapshot, diff, runCheck })').optional(),
  workspaceDir: z.string().min(1),
  preContext: preContextSchema.optional(),
  breaker: breakerSchema.optional(),
  recentHistoryWindow: count(0).optional(),
  agentTimeoutMs: count(1).optional(),
  checkTimeoutMs: count(1).optional(),
  maxRetries: count(1).max(50).optional(),
  maxWaitMs: count(0).optional(),
  leaseMs: count(1).optional(),
  concurrency: count(1).optional(),
  sites: objectWithMethods<TaskSites>(['open'], 'a TaskSites ({ open(task) })').optional(),
  pollMs: count(1).optional(),
  owner: z.string().min(1).optional(),
  report: z.boolean().optional(),
  now: functionOption<() => number>().optional(),
  sleep: functionOption<(ms: number, signal?: AbortSignal) => Promise<void>>().optional(),
  logger: objectWithMethods<Logger>(['info', 'warn', 'error'], 'a Logger (pino, or createLogger())').optional(),
  onEvent: functionOption<EventSink>().optional(),
  signal: abortSignalOption.optional(),
  refreshSessions: functionOption<() => Promise<void>>().optional(),
});

/**
 * Checks runPlan's arguments and returns the plan with defaults filled in (a task's title is its
 * id). Options are checked, not copied: runPlan keeps the caller's objects.
 * @throws BatonError INPUT_INVALID for the plan (unknown key, naming the spelling expected; a
 *   missing field; an unknown dependency or a cycle), CONFIG_INVALID for the options.
 */
export function checkRunPlanArgs(plan: unknown, options: unknown): Plan {
  const parsed = parseInput(runPlanPlanSchema, plan, {
    what: 'runPlan plan',
    code: 'INPUT_INVALID',
    describePath: (issuePath) => describePlanPath(issuePath, plan),
  });
  parseInput(runPlanOptionsSchema, options, { what: 'runPlan options' });
  const tasks = parsed.tasks.map(({ title, ...task }) => ({ ...task, title: title ?? task.id }));
  orderTasks(tasks, parsed.file ?? 'runPlan plan');
  return { ...(parsed.file === undefined ? {} : { file: parsed.file }), tasks };
}
