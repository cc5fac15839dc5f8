import path from 'node:path';
// run-git.js alone: `baton status` imports through here and must not load the snapshot code.
import { git } from '../workspace/light.js';

/**
 * The folders whose sessions are this workspace's: its git root (first), `cwd` and every worktree
 * of that repository (`git worktree list`), resolved and deduplicated. Without git, just `cwd`.
 * Two git calls at most; never throws for a folder that is no repository.
 */
export async function workspaceRoots(cwd: string): Promise<string[]> {
  const here = path.resolve(cwd);
  try {
    const top = await git(['rev-parse', '--show-toplevel'], cwd);
    if (top.code !== 0) return [here];
    const roots = new Set([path.resolve(top.stdout.trim()), here]);
    const list = await git(['worktree', 'list', '--porcelain'], cwd);
    for (const line of list.stdout.split('\n')) {
      if (line.startsWith('worktree ')) roots.add(path.resolve(line.slice('worktree '.length).trim()));
    }
    return [...roots];
  } catch {
    return [here]; // git is not installed: the folder alone.
  }
}

/** Whether `dir` (a session's cwd) is one of `roots` or inside one. */
export function isUnderRoots(dir: string | undefined, roots: readonly string[]): boolean {
  if (dir === undefined || dir.length === 0) return false;
  const resolved = path.resolve(dir);
  return roots.some((root) => resolved === root || resolved.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}
