// Each schema of run-plan-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { CircuitBreakerOptions } from './circuit-breaker.js';
import type { RunPlanOptions } from './run-plan.js';
import type { PreContextInput } from '../precontext/index.js';
import type { PlanTask } from './plan-types.js';
import type { BreakerSettings } from './types.js';
import type {
  breakerOptionsSchema,
  breakerSchema,
  planTaskSchema,
  preContextLimitsSchema,
  preContextSchema,
  runPlanOptionsSchema,
} from './run-plan-schema.js';

export const BREAKER_OPTIONS_MATCH: SchemaFor<CircuitBreakerOptions, typeof breakerOptionsSchema> = true;
export const RUN_PLAN_OPTIONS_MATCH: SchemaFor<RunPlanOptions, typeof runPlanOptionsSchema> = true;
export const PLAN_TASK_MATCH: SchemaFor<PlanTask, typeof planTaskSchema> = true;
export const BREAKER_SETTINGS_MATCH: SchemaFor<Partial<BreakerSettings>, typeof breakerSchema> = true;
export const PRE_CONTEXT_INPUT_MATCH: SchemaFor<PreContextInput, typeof preContextSchema> = true;
export const PRE_CONTEXT_LIMITS_MATCH: SchemaFor<NonNullable<PreContextInput['limits']>, typeof preContextLimitsSchema> = true;
