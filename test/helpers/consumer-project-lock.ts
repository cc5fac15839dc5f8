/**
 * A lock between processes (vitest runs test files in forks, and several worktrees share one temp
 * folder): the first to create `<path>` runs, the others wait until it is gone. A lock left by a
 * process that died is taken over, so a killed test run never blocks the next.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** How often a waiter looks again at a lock another process holds. */
const LOOK_AGAIN_MS = 200;
/** A lock folder still without its pid after this long was left by a process that died creating it. */
const ORPHAN_AFTER_MS = 60_000;

/** Runs `fn` while holding the lock at `lockPath` (a folder created atomically). */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lockPath), { recursive: true });
  for (;;) {
    if (await tryTake(lockPath)) break;
    if (!(await holderAlive(lockPath))) {
      await rm(lockPath, { recursive: true, force: true });
      continue;
    }
    await delay(LOOK_AGAIN_MS);
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { recursive: true, force: true });
  }
}

async function tryTake(lockPath: string): Promise<boolean> {
  try {
    await mkdir(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  await writeFile(path.join(lockPath, 'pid'), String(process.pid));
  return true;
}

/** False when the holder's pid is gone; true while it runs, or while it is still writing its pid. */
async function holderAlive(lockPath: string): Promise<boolean> {
  let pid: number;
  try {
    pid = Number(await readFile(path.join(lockPath, 'pid'), 'utf8'));
  } catch {
    const created = await stat(lockPath).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
    return created !== undefined && Date.now() - created < ORPHAN_AFTER_MS;
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
