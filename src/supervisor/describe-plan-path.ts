/**
 * `tasks[1] (id "api").acceptance_criteria[0]`: a problem's path in a plan, with the task's id
 * when it has one (`id`, or a plan file's `task_id`), so a message names the task as its author
 * knows it.
 */
export function describePlanPath(issuePath: readonly PropertyKey[], raw: unknown): string {
  let out = '';
  for (const [i, key] of issuePath.entries()) {
    out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
    if (i === 1 && issuePath[0] === 'tasks' && typeof key === 'number') {
      const task = (raw as { tasks?: unknown })?.tasks;
      const entry = Array.isArray(task) ? (task[key] as Record<string, unknown> | undefined) : undefined;
      const id = entry?.id ?? entry?.task_id;
      if (typeof id === 'string') out += ` (id "${id}")`;
    }
  }
  return out || '(root)';
}
