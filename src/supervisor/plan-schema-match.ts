// The plan file's schema tied to PlanTask: a task field added to PlanTask and not to the file's schema
// fails the build. Apart from the schema file so that neither imports the other's module (no cycle).
import type * as z from 'zod';
import type { AcceptanceCriterion } from '../ledger/index.js';
import type { FileFormatFor, SchemaFor } from '../util/index.js';
import type { PlanTask } from './plan-types.js';
import type { criterionObjectFileSchema, planTaskFileSchema, retryPolicyFileSchema } from './plan-schema.js';

export const PLAN_CRITERION_MATCH: SchemaFor<AcceptanceCriterion, typeof criterionObjectFileSchema> = true;
/** Every PlanTask field has its snake_case spelling in the file (`maxRetries` is `retry_policy.max_retries`). */
export const PLAN_TASK_FILE_COVERS: FileFormatFor<PlanTask, z.input<typeof planTaskFileSchema>, 'maxRetries'> = true;
export const PLAN_TASK_RETRIES_COVERED: FileFormatFor<Pick<PlanTask, 'maxRetries'>, z.input<typeof retryPolicyFileSchema>> = true;
