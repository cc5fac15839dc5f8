import { createHash } from 'node:crypto';
import { lstat, readFile, readlink } from 'node:fs/promises';

/**
 * Git's blob id for a file's current content (sha1 of "blob SIZE\0" + bytes), so plain-folder
 * hashes, worktree hashes and index entries compare directly. A symlink hashes its target path,
 * as git stores it. Undefined when the path is missing or not a regular file or link.
 */
export async function hashFile(file: string): Promise<string | undefined> {
  try {
    const stat = await lstat(file);
    let bytes: Buffer;
    if (stat.isSymbolicLink()) bytes = Buffer.from(await readlink(file));
    else if (stat.isFile()) bytes = await readFile(file);
    else return undefined;
    return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  } catch {
    return undefined;
  }
}

/** Runs fn over items with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
