import { BatonError } from '../errors/index.js';
import type { PlanTask } from './plan-types.js';

/**
 * Orders tasks so each comes after its dependencies; among ready tasks higher priority first,
 * then plan order. Pure.
 * @throws BatonError INPUT_INVALID for duplicate ids, unknown dependencies and cycles.
 */
export function orderTasks(tasks: readonly PlanTask[], file = 'plan'): PlanTask[] {
  const byId = new Map<string, PlanTask>();
  tasks.forEach((task, i) => {
    if (byId.has(task.id)) invalid(`${file}: tasks[${i}] (id "${task.id}").id: duplicate task id`, file);
    byId.set(task.id, task);
  });
  for (const [i, task] of tasks.entries()) {
    for (const [j, dep] of task.dependsOn.entries()) {
      if (!byId.has(dep)) invalid(`${file}: tasks[${i}] (id "${task.id}").depends_on[${j}]: unknown task "${dep}"`, file);
    }
  }
  const done = new Set<string>();
  const ordered: PlanTask[] = [];
  const index = new Map(tasks.map((t, i) => [t.id, i]));
  while (ordered.length < tasks.length) {
    const ready = tasks
      .filter((t) => !done.has(t.id) && t.dependsOn.every((d) => done.has(d)))
      .sort((a, b) => b.priority - a.priority || (index.get(a.id) ?? 0) - (index.get(b.id) ?? 0));
    const next = ready[0];
    if (!next) {
      const stuck = tasks.filter((t) => !done.has(t.id)).map((t) => t.id);
      invalid(`${file}: depends_on forms a cycle among tasks ${stuck.map((id) => `"${id}"`).join(', ')}`, file);
    }
    done.add(next.id);
    ordered.push(next);
  }
  return ordered;
}

function invalid(message: string, file: string): never {
  throw new BatonError('INPUT_INVALID', message, { details: { file } });
}
