import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/** @default 60 s: a cap only, for a job whose process died (its file then stays until a session start reruns it). */
const JOBS_CAP_MS = 60_000;

/**
 * Waits until the Stop and SessionEnd folds the hooks handed to detached children (src/hooks/hook-jobs.ts)
 * are done: each removes its job file under `.baton/hooks/jobs/` when it ends.
 */
export async function hookJobsDone(repo: string): Promise<void> {
  const dir = path.join(repo, '.baton', 'hooks', 'jobs');
  const pending = () => {
    try {
      return readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
  };
  const until = Date.now() + JOBS_CAP_MS;
  while (pending().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Removes a project a real agent CLI ran in with Baton's hooks installed: after its handed-off folds
 * are done (a fold still writing `.baton/` made rmSync fail with ENOTEMPTY), retrying what a process
 * that is just exiting may still hold.
 */
export async function removeHookProject(dir: string): Promise<void> {
  await hookJobsDone(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
