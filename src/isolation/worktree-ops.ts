import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type WorkspaceOps, workspaceOps } from '../supervisor/index.js';
import { BatonError } from '../errors/index.js';
import { git, gitOk, SIDE_WORK_NICENESS } from './git.js';

/** Measurement and checks inside one task's worktree (the top of its own work tree), at `niceness`. */
export function workspaceIn(dir: string, niceness = SIDE_WORK_NICENESS): WorkspaceOps {
  return workspaceOps(dir, { gitTop: true, niceness });
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

/**
 * Stages everything in a task's worktree and commits it (at `niceness`); false when there was
 * nothing to commit.
 */
export async function commitAll(
  dir: string,
  message: string,
  identity: Readonly<Record<string, string>>,
  niceness = SIDE_WORK_NICENESS,
): Promise<boolean> {
  await gitOk(['add', '-A'], dir, {}, niceness);
  return commitStaged(dir, message, identity, niceness);
}

/** What `git add -A` staged: the paths it added (new or changed) and removed, from the top of the work tree. */
export interface StagedPaths {
  added: string[];
  removed: string[];
}

/** git add's verbose lines (LC_ALL=C): `add 'path'` and `remove 'path'`, the path unquoted. */
const STAGED_LINE = /^(add|remove) '(.*)'$/;

/**
 * Stages everything in a work tree (`git add -A`, at normal priority: on a task's path) and says
 * what it staged; undefined when git failed or printed a line it does not recognise (a path
 * with a line break in it), so callers fall back to asking git what the index holds.
 */
export async function stageAll(dir: string): Promise<StagedPaths | undefined> {
  const added = await git(['add', '-A', '--verbose'], dir).catch(() => undefined);
  if (added?.code !== 0) return undefined;
  const staged: StagedPaths = { added: [], removed: [] };
  for (const line of added.stdout.split('\n')) {
    if (line === '') continue;
    const match = STAGED_LINE.exec(line);
    if (!match) return undefined;
    (match[1] === 'add' ? staged.added : staged.removed).push(match[2] as string);
  }
  return staged;
}

/**
 * Commits what is staged; false when that is nothing. One git run fewer than asking first:
 * `git diff --cached` runs only when the commit did not.
 */
export async function commitStaged(
  dir: string,
  message: string,
  identity: Readonly<Record<string, string>>,
  niceness = SIDE_WORK_NICENESS,
): Promise<boolean> {
  const commit = await git(['commit', '--quiet', '--no-verify', '-m', message], dir, identity, niceness);
  if (commit.code === 0) return true;
  if ((await git(['diff', '--cached', '--quiet'], dir)).code === 0) return false;
  throw new BatonError('INTERNAL', `git commit failed in ${dir}: ${(commit.stderr || commit.stdout).trim() || `exit ${commit.code}`}`, {
    details: { cwd: dir, exitCode: commit.code },
  });
}

/** Deletes task branches, many per git run; a branch still checked out somewhere is kept. */
export async function deleteBranches(repo: string, branches: Iterable<string>): Promise<void> {
  const all = [...new Set(branches)];
  for (let i = 0; i < all.length; i += 100) await git(['branch', '-D', ...all.slice(i, i + 100)], repo);
}

/**
 * Removes a run's worktrees without waiting for their files to go: each folder is renamed into a
 * trash folder under `root` (instant), git forgets them (`worktree prune`), and a detached process
 * deletes the trash while this one goes on or exits. Deleting four worktrees of 50,000 files took
 * 22 s after the last task of a run had ended. A trash folder an interrupted delete left behind
 * goes with the rest of `root` when the next run starts (pruneStaleWorktrees).
 */
export async function discardWorktrees(repo: string, root: string, dirs: Iterable<string>): Promise<void> {
  const present = [...dirs].filter((dir) => existsSync(dir));
  if (present.length > 0) {
    const trash = path.join(root, `.trash-${process.pid}-${Date.now()}`);
    await mkdir(trash, { recursive: true });
    for (const [i, dir] of present.entries()) await rename(dir, path.join(trash, String(i)));
    const remover = spawn(
      process.execPath,
      ['-e', `require('node:fs').rmSync(${JSON.stringify(trash)}, { recursive: true, force: true })`],
      {
        detached: true,
        stdio: 'ignore',
      },
    );
    remover.on('error', () => undefined);
    remover.unref();
  }
  await git(['worktree', 'prune'], repo);
}
