import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** Where a workspace's git data lives, found without spawning git. */
export interface GitLocation {
  /** The `.git` directory (for worktrees: the worktree's own git dir). */
  gitDir: string;
  /** Shared dir holding refs and packed-refs (differs from gitDir in linked worktrees). */
  commonDir: string;
}

/** Walks up from `start` to the nearest `.git` (directory or `gitdir:` file). */
export async function findGitLocation(start: string): Promise<GitLocation | undefined> {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, '.git');
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isDirectory()) return { gitDir: candidate, commonDir: candidate };
    if (info?.isFile()) {
      const text = await readFile(candidate, 'utf8').catch(() => '');
      const match = /^gitdir:\s*(.+)$/m.exec(text);
      if (match?.[1]) {
        const gitDir = path.resolve(dir, match[1].trim());
        const common = await readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
        return { gitDir, commonDir: common ? path.resolve(gitDir, common.trim()) : gitDir };
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The commit HEAD points to, read from files: '' for an unborn branch. Synchronous reads of two
 * or three tiny files: cheaper than a thread-pool round trip each, and this runs on every cached
 * refresh (it is the cache key).
 */
export async function readHead(location: GitLocation): Promise<{ head: string; ref?: string }> {
  return readHeadNow(location);
}

function readHeadNow(location: GitLocation): { head: string; ref?: string } {
  const raw = readFileSync(path.join(location.gitDir, 'HEAD'), 'utf8').trim();
  if (!raw.startsWith('ref:')) return { head: raw };
  const ref = raw.slice(4).trim();
  const loose = readOrUndefined(path.join(location.commonDir, ref));
  if (loose) return { head: loose.trim(), ref };
  const packed = readOrUndefined(path.join(location.commonDir, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha) return { head: sha, ref };
  }
  return { head: '', ref };
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Cache key for git results: HEAD (ref and commit) plus the index's mtime and size, so a commit,
 * a checkout, or `git add` all change it. Costs a few small synchronous file reads, no process.
 */
export async function readGitKey(location: GitLocation): Promise<string> {
  const { head, ref } = readHeadNow(location);
  const index = statSync(path.join(location.gitDir, 'index'), { throwIfNoEntry: false });
  return `${ref ?? '-'}@${head}|${index ? `${index.mtimeMs}:${index.size}` : 'noindex'}`;
}
