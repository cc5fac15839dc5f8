import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where a workspace's git data lives, found without spawning git. */
export interface GitLocation {
  /** The folder holding `.git`: the top of the work tree. */
  root: string;
  /** The `.git` directory (for a linked worktree: the worktree's own git dir). */
  gitDir: string;
  /** Shared dir holding refs and packed-refs (differs from gitDir in linked worktrees). */
  commonDir: string;
}

/**
 * The nearest `.git` at or above `start`, found without running git: a directory, or a file
 * reading `gitdir: <path>` (a linked worktree or a submodule), whose `commondir` names the shared
 * dir. The walk stops at the first `.git` of any kind, as git's does; a `.git` file without a
 * `gitdir:` line gives that file as the git dir (git refuses it too). Undefined outside a repository.
 */
export function locateGit(start: string): GitLocation | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, '.git');
    const info = statSync(candidate, { throwIfNoEntry: false });
    if (info?.isFile()) return fromGitFile(dir, candidate);
    if (info) return { root: dir, gitDir: candidate, commonDir: candidate };
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function fromGitFile(root: string, file: string): GitLocation {
  const match = /^gitdir:\s*(.+)$/m.exec(readOrEmpty(file));
  if (!match?.[1]) return { root, gitDir: file, commonDir: file };
  const gitDir = path.resolve(root, match[1].trim());
  const common = readOrEmpty(path.join(gitDir, 'commondir')).trim();
  return { root, gitDir, commonDir: common ? path.resolve(gitDir, common) : gitDir };
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
