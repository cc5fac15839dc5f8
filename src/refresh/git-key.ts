import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { GitLocation } from '../workspace/index.js';

/**
 * The commit HEAD points to, read from files: '' for an unborn branch. Synchronous reads of two
 * or three tiny files: cheaper than a thread-pool round trip each, and this runs on every cached
 * refresh (it is the cache key).
 */
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
