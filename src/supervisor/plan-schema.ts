import * as z from 'zod';
import { MAX_TASK_ID_LENGTH } from '../ledger/index.js';

/** A criterion as an object: AcceptanceCriterion's own spelling. */
export const criterionObjectFileSchema = z.strictObject({
  description: z.string().min(1).describe('What must hold when the task is done'),
  check: z.string().min(1).optional().describe('Shell command whose exit 0 proves the criterion'),
});

const criterionFileSchema = z.union([z.string().min(1).describe('What must hold when the task is done'), criterionObjectFileSchema]);

export const taskIdSchema = z.string().min(1).max(MAX_TASK_ID_LENGTH, `a task id of at most ${MAX_TASK_ID_LENGTH} characters`);

const taskOptionsFileSchema = z.object({ enable_pre_context: z.boolean().optional() }).catchall(z.unknown());
export const retryPolicyFileSchema = z.strictObject({ max_retries: z.number().int().min(1).max(50) }).partial();

/**
 * A task as a plan file (JSON or YAML) spells it: snake_case, each field but `instructions`
 * optional, `retry_policy.max_retries` for PlanTask's `maxRetries`. plan-schema-match.ts ties it
 * to PlanTask, so a new task field cannot be refused by a forgotten schema.
 */
export const planTaskFileSchema = z
  .strictObject({
    id: taskIdSchema.optional().describe('Unique task id'),
    task_id: taskIdSchema.optional().describe('Unique task id (seed 000 spelling)'),
    title: z.string().optional(),
    instructions: z.string().min(1).describe('What the agent must do'),
    intent: z.string().optional().describe('Why the task exists'),
    acceptance_criteria: z.array(criterionFileSchema).default([]),
    depends_on: z.array(z.string().min(1)).default([]),
    retry_policy: retryPolicyFileSchema.optional(),
    options: taskOptionsFileSchema.default({}),
    agent_mode: z.string().optional(),
    priority: z.number().int().default(0),
  })
  .refine((t) => t.id !== undefined || t.task_id !== undefined, { message: 'a task needs an id (or task_id)', path: ['id'] });

/**
 * A plan file: `{ tasks: [...] }` in JSON or YAML. Strict at every level but a task's `options`
 * (the user's own map): a key Baton does not know (`acceptanceCriteria`, `dependsOn`) is an error
 * naming the spelling it expects, never a field silently dropped.
 */
export const planSchema = z.strictObject({
  tasks: z.array(planTaskFileSchema).min(1, 'a plan needs at least one task'),
});

/** loadPlan's arguments: `{ workspaceDir }` names `cwd`. */
export const loadPlanArgsSchema = z.strictObject({
  file: z.string().min(1, 'expected the plan file path'),
  options: z.strictObject({ cwd: z.string().min(1).optional() }),
});

export type PlanFile = z.infer<typeof planSchema>;
