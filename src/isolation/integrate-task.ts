import { buildMergeConflictContext, type ConflictAuthor, type PreContextLimits } from '../precontext/index.js';
import { git, gitOk } from './git.js';
import { taskOfSubject } from './task-branch.js';

export interface IntegrateInput {
  /** The user's working tree, on the run's branch. */
  repo: string;
  runBranch: string;
  /** The task's worktree (reset to the new base on a conflict). */
  worktree: string;
  taskId: string;
  taskBranch: string;
  identity: Readonly<Record<string, string>>;
  limits: Partial<PreContextLimits>;
}

export type IntegrateResult = { ok: true } | { ok: false; conflict: boolean; error: string; context: string; files: string[] };

/**
 * Merges the task's branch into the run's branch in the user's working tree. On a conflict the
 * merge is aborted (the tree is left as it was), the task's worktree is reset to the run's branch
 * (the new base) and the MERGE CONFLICT CONTEXT names the files and the tasks that changed them.
 */
export async function integrateTask(input: IntegrateInput): Promise<IntegrateResult> {
  const { repo } = input;
  const merge = await git(
    ['merge', '--no-edit', '--no-verify', '-m', `baton: integrate ${input.taskId}`, input.taskBranch],
    repo,
    input.identity,
  );
  if (merge.code === 0) return { ok: true };
  const conflicted = await git(['diff', '--name-only', '--diff-filter=U'], repo);
  const files = conflicted.stdout
    .split('\n')
    .map((f) => f.trim())
    .filter(Boolean);
  await git(['merge', '--abort'], repo);
  if (files.length === 0) {
    const reason = (merge.stderr || merge.stdout).trim().split('\n')[0] ?? `exit ${merge.code}`;
    return { ok: false, conflict: false, error: `could not integrate into ${input.runBranch}: ${reason}`, context: '', files };
  }
  const changedBy = await authorsOf(input, files);
  // The re-run starts from the new base, which holds the other task's change.
  await gitOk(['reset', '--hard', '--quiet', input.runBranch], input.worktree);
  await gitOk(['clean', '-fdq'], input.worktree);
  const who = changedBy.map((a) => (a.taskId ? `task ${a.taskId}` : `commit "${a.subject}"`)).join(', ');
  return {
    ok: false,
    conflict: true,
    error: `merge conflict integrating into ${input.runBranch}: ${files.slice(0, 5).join(', ')}${who ? ` (changed by ${who})` : ''}`,
    context: buildMergeConflictContext({ files, changedBy, limits: input.limits }),
    files,
  };
}

/** The newest commit on the run's branch, since the task's base, that changed each file. */
async function authorsOf(input: IntegrateInput, files: readonly string[]): Promise<ConflictAuthor[]> {
  const base = (await git(['merge-base', input.runBranch, input.taskBranch], input.repo)).stdout.trim();
  const authors: ConflictAuthor[] = [];
  for (const file of files.slice(0, 5)) {
    const range = base ? `${base}..${input.runBranch}` : input.runBranch;
    const subject = (await git(['log', '-1', '--no-merges', '--format=%s', range, '--', file], input.repo)).stdout.trim();
    if (!subject) continue;
    const task = taskOfSubject(subject);
    authors.push(task ? { taskId: task.taskId, attempt: task.attempt } : { subject: subject.slice(0, 60) });
  }
  return authors;
}
