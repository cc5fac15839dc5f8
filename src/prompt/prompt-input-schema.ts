import * as z from 'zod';
import { objectWithMethods, parseInput } from '../util/index.js';

/**
 * The checks of buildTaskPrompt's and loadPromptState's arguments from code. The task is read
 * as a ledger Task or a plan's PlanTask (other fields pass); the state and the options are strict,
 * so `{ excludeTaskId }` or `{ workingDir }` is an error naming the spelling expected.
 */

const taskSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string().optional(),
  instructions: z.string(),
  intent: z.string().optional(),
  acceptanceCriteria: z.array(z.looseObject({ description: z.string(), check: z.string().optional() }), {
    error: "expected an array of { description, check? } (a plan file's acceptance_criteria, as Task.acceptanceCriteria)",
  }),
});

const stateSchema = z.strictObject({
  recent_history: z.array(z.looseObject({ task_id: z.string(), completed_at: z.string() })),
  active_blockers: z.array(z.looseObject({ task_id: z.string(), reason: z.string() })),
  recent_sessions: z.array(z.looseObject({ session_id: z.string() })).optional(),
});

const optionsSchema = z.strictObject({ workingDirectory: z.string().min(1) });

const argsSchema = z.strictObject({ task: taskSchema, state: stateSchema, options: optionsSchema });

/** @throws BatonError INPUT_INVALID naming each problem (`state: unknown key "recentHistory" ...`). */
export function checkTaskPromptArgs(task: unknown, state: unknown, options: unknown): void {
  parseInput(argsSchema, { task, state, options }, { what: 'buildTaskPrompt', code: 'INPUT_INVALID' });
}

const count = z.number().int().min(0);

const loadArgsSchema = z.strictObject({
  ledger: objectWithMethods(['recentCompletedTasks', 'listTasks'], 'a Ledger (from openLedger or new MemoryLedger())'),
  options: z.strictObject({
    window: count.optional(),
    maxBlockers: count.optional(),
    resultTokens: count.optional(),
    sessions: count.optional(),
    workspace: z.string().min(1).optional(),
  }),
});

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkPromptStateArgs(ledger: unknown, options: unknown): void {
  parseInput(loadArgsSchema, { ledger, options }, { what: 'loadPromptState' });
}
