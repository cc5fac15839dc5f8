import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { gitFiles, gitPrefix, startGitListing } from './git-files.js';
import { hashFile, mapLimit } from './hash-file.js';
import type { WorkspaceSnapshot } from './types.js';
import { walkFolder } from './walk-folder.js';

const HASH_CONCURRENCY = 16;

export interface SnapshotOptions {
  /**
   * The folder is known to be the top of a git work tree (a task's worktree): git is not asked
   * where it is, which saves a git run per snapshot.
   */
  gitTop?: boolean;
  /** Niceness of the git runs (see GitOptions). @default 0 */
  niceness?: number;
}

/**
 * Records the content of every file in a workspace. Inside a git work tree it uses git's view
 * (`git status --porcelain=v2` plus the index, so ignored files are skipped by git's own rules);
 * elsewhere it walks the folder, skipping node_modules, .git, .baton, dist and the root
 * .gitignore's simple patterns. Take one before and one after a run and pass both to diffSnapshots.
 * @throws BatonError WORKSPACE_NOT_SET when dir is not a folder.
 */
export async function snapshotWorkspace(dir: string, options: SnapshotOptions = {}): Promise<WorkspaceSnapshot> {
  const root = path.resolve(dir);
  const info = await stat(root).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new BatonError('WORKSPACE_NOT_SET', `Workspace ${root} is not a folder`, { details: { dir: root } });
  }
  // git's listing starts with the prefix query, not after it: one round of git runs less per
  // snapshot (two per attempt). Outside git it fails, and that is ignored.
  const listing = startGitListing(root, options.niceness);
  listing.catch(() => undefined);
  const prefix = options.gitTop ? '' : await gitPrefix(root);
  if (prefix !== undefined) return { root, kind: 'git', files: await gitFiles(root, prefix, listing) };
  const list = await walkFolder(root);
  const hashes = await mapLimit(list, HASH_CONCURRENCY, (rel) => hashFile(path.join(root, rel)));
  const files = new Map<string, string>();
  list.forEach((rel, i) => {
    const hash = hashes[i];
    if (hash !== undefined) files.set(rel, hash);
  });
  return { root, kind: 'plain', files };
}
