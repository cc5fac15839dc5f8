/** Branches of task worktrees live under this prefix: `baton/<task-id>`. */
export const TASK_BRANCH_PREFIX = 'baton/';

/** The branch name of a task: `baton/<task-id>`, with characters git refuses in refs replaced. */
export function taskBranch(taskId: string): string {
  return `${TASK_BRANCH_PREFIX}${safeRefPart(taskId)}`;
}

/** A task id as one safe path and ref component (no slashes, no `..`, no lock suffix). */
export function safeRefPart(taskId: string): string {
  const cleaned = taskId
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+|[.]+$/g, '')
    .replace(/\.lock$/i, '-lock');
  return cleaned || 'task';
}

/** The commit message of a task's result: names the task and the attempt (parsed back by taskOfSubject). */
export function taskCommitMessage(taskId: string, attempt: number): string {
  return `baton: ${taskId} (attempt ${attempt})`;
}

/** The task and attempt a Baton commit subject names, if it is one. */
export function taskOfSubject(subject: string): { taskId: string; attempt: number } | undefined {
  const match = /^baton: (\S+) \(attempt (\d+)\)$/.exec(subject.trim());
  return match ? { taskId: match[1] as string, attempt: Number(match[2]) } : undefined;
}
