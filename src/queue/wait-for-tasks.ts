import { setTimeout as delay } from 'node:timers/promises';
import { isBatonError } from '../errors/index.js';
import type { LedgerCore } from '../ledger/index.js';

const FINAL = new Set(['completed', 'blocked', 'archived']);

export interface WaitForTasksOptions {
  /** @default 250 */
  pollMs?: number;
  signal?: AbortSignal;
  onProgress?: (done: number) => void;
  onUnavailable?: (message: string) => void;
  /** Tasks whose jobs failed for good, with why: they count as done (failed). */
  failedJobs?: () => Promise<ReadonlyMap<string, string>>;
}

/**
 * Resolves when every task is completed, blocked or archived in the ledger, or its job failed for
 * good (or the signal aborts); returns the tasks whose jobs failed, with why.
 */
export async function waitForTasks(
  ledger: LedgerCore,
  taskIds: readonly string[],
  options: WaitForTasksOptions = {},
): Promise<Map<string, string>> {
  const open = new Set(taskIds);
  const failed = new Map<string, string>();
  let reported = -1;
  while (open.size > 0 && !options.signal?.aborted) {
    try {
      // One read for all (one script on Redis): the producer polls while the workers work.
      const ids = [...open];
      const tasks = await ledger.getTasks(ids);
      tasks.forEach((task, i) => {
        if (task && FINAL.has(task.status)) open.delete(ids[i]!);
      });
      // A failed look at the jobs (Redis restarting) is only a look missed.
      for (const [id, why] of (await options.failedJobs?.().catch(() => undefined)) ?? []) {
        if (open.delete(id)) failed.set(id, why);
      }
    } catch (error) {
      // Redis restarting or briefly unreachable: the run is still going; look again shortly.
      if (!isBatonError(error) || error.code !== 'LEDGER_UNAVAILABLE') throw error;
      options.onUnavailable?.(error.message);
    }
    const done = taskIds.length - open.size;
    if (done !== reported) options.onProgress?.(done);
    reported = done;
    if (open.size === 0) break;
    await delay(options.pollMs ?? 250, undefined, options.signal ? { signal: options.signal } : {}).catch(() => undefined);
  }
  return failed;
}
