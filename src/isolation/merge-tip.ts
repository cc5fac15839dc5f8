import type { ConflictAuthor } from '../precontext/index.js';
import { git, gitOk } from '../workspace/index.js';
import { taskOfSubject } from './task-branch.js';

/** Files named in a conflict's authors, at most (the conflict context lists no more). */
const MAX_CONFLICT_AUTHORS = 5;

/** What merging a branch's tip into a task's commit came to. */
export type MergeResult =
  | { kind: 'current' }
  | { kind: 'merged' }
  | { kind: 'conflict'; files: string[]; changedBy: ConflictAuthor[] }
  | { kind: 'failed'; error: string };

/**
 * Merges `tip` into the worktree's HEAD (the task's commit): `current` when the tip brought
 * nothing new, `merged` when it did (a fast-forward or a merge commit "baton: integrate <task>").
 * On a conflict the merge is aborted and the worktree reset to the tip, so that the task's next
 * attempt starts from it; the conflicting files and the newest commit since the task's base that
 * changed each are returned.
 */
export async function mergeTip(dir: string, tip: string, taskId: string, identity: Readonly<Record<string, string>>): Promise<MergeResult> {
  const merge = await git(['merge', '--no-edit', '--no-verify', '-m', `baton: integrate ${taskId}`, tip], dir, { env: identity });
  // git says so in English (LC_ALL=C).
  if (merge.code === 0) return /^Already up.to.date/m.test(merge.stdout) ? { kind: 'current' } : { kind: 'merged' };
  const listed = await git(['diff', '--name-only', '--diff-filter=U'], dir);
  const files = listed.stdout.split('\n').filter(Boolean);
  const changedBy = files.length > 0 ? await authorsOf(dir, tip, files) : [];
  await git(['merge', '--abort'], dir);
  if (files.length === 0) return { kind: 'failed', error: firstLine(merge.stderr || merge.stdout) || `git merge exited ${merge.code}` };
  await gitOk(['reset', '--hard', '--quiet', tip], dir);
  await gitOk(['clean', '-fdq'], dir);
  return { kind: 'conflict', files, changedBy };
}

async function authorsOf(dir: string, tip: string, files: readonly string[]): Promise<ConflictAuthor[]> {
  const base = (await git(['merge-base', 'HEAD', tip], dir)).stdout.trim();
  const authors: ConflictAuthor[] = [];
  for (const file of files.slice(0, MAX_CONFLICT_AUTHORS)) {
    const range = base ? `${base}..${tip}` : tip;
    const subject = (await git(['log', '-1', '--no-merges', '--format=%s', range, '--', file], dir)).stdout.trim();
    const task = subject ? taskOfSubject(subject) : undefined;
    if (task) authors.push({ taskId: task.taskId, attempt: task.attempt });
    else if (subject) authors.push({ subject: subject.slice(0, 60) });
  }
  return authors;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
