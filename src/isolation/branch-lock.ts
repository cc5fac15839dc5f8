/** Lets go of a branch's lock. */
export type ReleaseLock = () => Promise<void>;

/**
 * One integration at a time per run branch. Advisory: the push that ends an integration is a
 * compare-and-swap whether or not the lock was had, so a lost lock costs a retry, never a wrong
 * result. `--concurrency` uses the in-process lock below; workers use a Redis lock with renewal
 * (src/queue).
 */
export interface BranchLock {
  /** Waits until this process holds `branch`'s lock (`main`, `origin/main`); the signal stops the wait (it then rejects). */
  acquire(branch: string, signal?: AbortSignal): Promise<ReleaseLock>;
}

/** A BranchLock inside one process: each branch's holders queue in order. */
export function inProcessLock(): BranchLock {
  const tails = new Map<string, Promise<void>>();
  return {
    async acquire(branch, signal) {
      signal?.throwIfAborted();
      const before = tails.get(branch) ?? Promise.resolve();
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const tail = before.then(() => held);
      tails.set(branch, tail);
      await before;
      return async () => {
        release();
        if (tails.get(branch) === tail) tails.delete(branch);
      };
    },
  };
}
