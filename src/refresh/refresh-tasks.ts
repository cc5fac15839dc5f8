import { BatonError } from '../errors/index.js';
import { FORMAT_TOKEN_CAPS } from './format-budgets.js';
import { refreshContext } from './refresh-context.js';
import type { RefreshMetadata, RefreshOptions } from './types.js';

/** @default 10: tasks one multi-task refresh may cover (each gets a share of the format's cap). */
export const MAX_TASKS_PER_REFRESH = 10;
/** A task's share of the budget never drops below the minimal format's cap. */
const MIN_SHARE_TOKENS = FORMAT_TOKEN_CAPS.minimal;

export interface TaskContext {
  task_id: string;
  context: Record<string, unknown>;
  continuation_prompt?: string;
  metadata: RefreshMetadata;
}

export interface RefreshTasksResult {
  contexts: TaskContext[];
  /** Dependencies among the requested tasks, and on tasks outside the set. */
  dependencies: Array<{ task_id: string; depends_on: string; status: string; in_set: boolean }>;
  metadata: { format: string; token_estimate: number; warnings: string[]; redactions: number };
}

/**
 * Multi-task refresh (seed 002 §8.5): one context per task, each in an equal share of the format's
 * cap (at least the minimal cap), plus the dependencies between them. Throws INPUT_INVALID for an
 * empty or oversized list, NOT_FOUND for an unknown task.
 */
export async function refreshTasks(taskIds: readonly string[], options: Omit<RefreshOptions, 'taskId'>): Promise<RefreshTasksResult> {
  const ids = [...new Set(taskIds)];
  if (ids.length === 0 || ids.length > MAX_TASKS_PER_REFRESH) {
    throw new BatonError('INPUT_INVALID', `task_ids must list 1 to ${MAX_TASKS_PER_REFRESH} tasks; got ${ids.length}`, {
      details: { field: 'task_ids', value: ids.length },
    });
  }
  const format = options.format ?? 'standard';
  const share = Math.max(MIN_SHARE_TOKENS, Math.floor((options.maxTokens ?? FORMAT_TOKEN_CAPS[format]) / ids.length));
  const results = await Promise.all(ids.map((taskId) => refreshContext({ ...options, taskId, maxTokens: share })));
  const status = new Map<string, string>();
  for (const result of results) {
    const task = result.snapshot.task;
    if (task) status.set(task.id, task.status);
    for (const dep of result.snapshot.dependencies) if (!status.has(dep.id)) status.set(dep.id, dep.status);
  }
  const dependencies = results.flatMap((result) =>
    (result.snapshot.task?.dependsOn ?? []).map((dep) => ({
      task_id: result.snapshot.task?.id ?? '',
      depends_on: dep,
      status: status.get(dep) ?? 'unknown',
      in_set: ids.includes(dep),
    })),
  );
  return {
    contexts: results.map((result) => ({
      task_id: result.snapshot.task?.id ?? '',
      context: result.context,
      continuation_prompt: result.continuation_prompt,
      metadata: result.metadata,
    })),
    dependencies,
    metadata: {
      format,
      token_estimate: results.reduce((sum, r) => sum + r.metadata.token_estimate, 0),
      warnings: [...new Set(results.flatMap((r) => r.metadata.warnings))],
      redactions: results.reduce((sum, r) => sum + r.metadata.redactions, 0),
    },
  };
}
