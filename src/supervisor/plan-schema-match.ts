// The plan file's schema tied to its file format, and the file format to PlanTask: a task field added to
// PlanTask alone, or to the format without the schema, fails the build. Apart from the schema file so that
// neither imports the other's module (no cycle).
import type { AcceptanceCriterion } from '../ledger/index.js';
import type { FileFormatFor, SchemaFor } from '../util/index.js';
import type { PlanFileFormat, PlanTask, PlanTaskFile } from './plan-types.js';
import type {
  criterionObjectFileSchema,
  planSchema,
  planTaskFileSchema,
  retryPolicyFileSchema,
  taskOptionsFileSchema,
} from './plan-schema.js';

export const PLAN_FILE_MATCH: SchemaFor<PlanFileFormat, typeof planSchema> = true;
export const PLAN_TASK_FILE_MATCH: SchemaFor<PlanTaskFile, typeof planTaskFileSchema> = true;
export const PLAN_CRITERION_MATCH: SchemaFor<AcceptanceCriterion, typeof criterionObjectFileSchema> = true;
export const PLAN_RETRY_POLICY_MATCH: SchemaFor<Exclude<PlanTaskFile['retry_policy'], undefined>, typeof retryPolicyFileSchema> = true;
export const PLAN_TASK_OPTIONS_MATCH: SchemaFor<Exclude<PlanTaskFile['options'], undefined>, typeof taskOptionsFileSchema> = true;
/** Every PlanTask field has its snake_case spelling in the file (`maxRetries` is `retry_policy.max_retries`). */
export const PLAN_TASK_FILE_COVERS: FileFormatFor<PlanTask, PlanTaskFile, 'maxRetries'> = true;
export const PLAN_TASK_RETRIES_COVERED: FileFormatFor<
  Pick<PlanTask, 'maxRetries'>,
  Exclude<PlanTaskFile['retry_policy'], undefined>
> = true;
