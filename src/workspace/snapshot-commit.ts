import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { runGit } from './run-git.js';
import type { WorkspaceSnapshot } from './types.js';

/** Large enough for the tree listing of a very big repository. */
const MAX_LISTING_BYTES = 512 * 1024 * 1024;

/**
 * The snapshot of a work tree that holds exactly `commit`'s files, nothing staged or untracked
 * (a task's worktree just checked out and cleaned), read from the commit instead of the folder:
 * the same files and blob ids as snapshotWorkspace would find there. It reads no file of the
 * work tree, so it may run while an agent already works in it.
 */
export async function snapshotOfCommit(dir: string, commit: string, niceness = 0): Promise<WorkspaceSnapshot> {
  const { stdout, truncated } = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit], dir, MAX_LISTING_BYTES, niceness);
  if (truncated) throw new BatonError('INTERNAL', `git ls-tree printed more than ${MAX_LISTING_BYTES} bytes in ${dir}`);
  const files = new Map<string, string>();
  for (const record of stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    // "<mode> <type> <object>\t<path>"; Baton's own state folder is never measured.
    const [, , sha] = record.slice(0, tab).split(' ');
    const rel = record.slice(tab + 1);
    if (sha === undefined || rel === '.baton' || rel.startsWith('.baton/')) continue;
    files.set(rel, sha);
  }
  return { root: path.resolve(dir), kind: 'git', files };
}
