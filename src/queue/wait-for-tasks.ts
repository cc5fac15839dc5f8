import { setTimeout as delay } from 'node:timers/promises';
import { isBatonError } from '../errors/index.js';
import type { LedgerCore } from '../ledger/index.js';

const FINAL = new Set(['completed', 'blocked', 'archived']);

/** Resolves when every task is completed, blocked or archived in the ledger (or the signal aborts). */
export async function waitForTasks(
  ledger: LedgerCore,
  taskIds: readonly string[],
  options: { pollMs?: number; signal?: AbortSignal; onProgress?: (done: number) => void; onUnavailable?: (message: string) => void } = {},
): Promise<void> {
  const open = new Set(taskIds);
  let reported = -1;
  while (open.size > 0 && !options.signal?.aborted) {
    try {
      // One read for all (one script on Redis): the producer polls while the workers work.
      const ids = [...open];
      const tasks = await ledger.getTasks(ids);
      tasks.forEach((task, i) => {
        if (task && FINAL.has(task.status)) open.delete(ids[i]!);
      });
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
}
