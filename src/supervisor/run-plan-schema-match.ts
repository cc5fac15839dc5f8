// Each schema of run-plan-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { CircuitBreakerOptions } from './circuit-breaker.js';
import type { RunPlanOptions } from './run-plan.js';
import type { breakerOptionsSchema, runPlanOptionsSchema } from './run-plan-schema.js';

export const BREAKER_OPTIONS_MATCH: SchemaFor<CircuitBreakerOptions, typeof breakerOptionsSchema> = true;
export const RUN_PLAN_OPTIONS_MATCH: SchemaFor<RunPlanOptions, typeof runPlanOptionsSchema> = true;
