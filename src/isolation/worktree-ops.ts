import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { type WorkspaceOps, workspaceOps } from '../supervisor/index.js';
import { git } from './git.js';

/** Measurement and checks inside one task's worktree. */
export function workspaceIn(dir: string): WorkspaceOps {
  return workspaceOps(dir);
}

/** Removes a worktree (and its folder, whatever state it is in). */
export async function removeWorktree(repo: string, dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  await git(['worktree', 'remove', '--force', '--force', dir], repo);
  // `worktree remove` deletes the folder and its metadata; what it could not remove goes here.
  if (existsSync(dir)) {
    await rm(dir, { recursive: true, force: true });
    await git(['worktree', 'prune'], repo);
  }
}

/** Runs `work` after every earlier call has settled: git operations on one clone, one at a time. */
export function createSerializer(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work);
    last = next.catch(() => undefined);
    return next;
  };
}
