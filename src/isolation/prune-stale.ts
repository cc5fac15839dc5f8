import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../observability/index.js';
import { git } from './git.js';
import { TASK_BRANCH_PREFIX } from './task-branch.js';

/**
 * Removes what an interrupted (or --keep-worktrees) run left behind, so it cannot block this one:
 * every worktree under `root`, the folder itself, and every `baton/*` branch not checked out.
 * A task that did not finish runs again from the run's branch.
 */
export async function pruneStaleWorktrees(repo: string, root: string, logger: Logger): Promise<void> {
  await git(['worktree', 'prune'], repo);
  const list = await git(['worktree', 'list', '--porcelain'], repo);
  const prefix = root + path.sep;
  const stale = list.stdout
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
    .filter((dir) => path.resolve(dir).startsWith(prefix));
  for (const dir of stale) await git(['worktree', 'remove', '--force', '--force', dir], repo);
  await rm(root, { recursive: true, force: true });
  await git(['worktree', 'prune'], repo);
  const refs = await git(['for-each-ref', '--format=%(refname:short)', `refs/heads/${TASK_BRANCH_PREFIX}`], repo);
  const branches = refs.stdout
    .split('\n')
    .map((b) => b.trim())
    .filter(Boolean);
  // git refuses to delete a checked-out branch, which is what we want.
  for (const branch of branches) await git(['branch', '-D', branch], repo);
  if (stale.length > 0 || branches.length > 0)
    logger.info({ worktrees: stale.length, branches: branches.length }, 'removed stale task worktrees and branches of an earlier run');
}
