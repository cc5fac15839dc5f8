/**
 * The per-try session import of `baton run` (sessionRefresher's `coalesced`): one import at a time;
 * a try asking while one runs gets the next one, shared with every try asking meanwhile; a caller
 * waits at most the budget, and a failed import never fails the try.
 */
import { describe, expect, it, vi } from 'vitest';
import { coalesced } from '../../src/supervisor/session-refresher.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('coalesced (the per-try session import)', () => {
  it('runs one at a time; callers arriving meanwhile share the next run', async () => {
    const runs: Array<ReturnType<typeof deferred>> = [];
    const refresh = coalesced(() => {
      const run = deferred();
      runs.push(run);
      return run.promise;
    }, 60_000);
    const first = refresh();
    const second = refresh();
    const third = refresh();
    expect(runs).toHaveLength(1);
    runs[0]?.resolve();
    await first;
    await vi.waitFor(() => expect(runs).toHaveLength(2));
    runs[1]?.resolve();
    await Promise.all([second, third]);
    expect(runs).toHaveLength(2);
    const fourth = refresh();
    expect(runs).toHaveLength(3);
    runs[2]?.reject(new Error('store unreadable'));
    await expect(fourth).resolves.toBeUndefined();
  });

  it('returns after the budget while the run goes on', async () => {
    let done = false;
    const never = deferred();
    const refresh = coalesced(async () => {
      await never.promise;
      done = true;
    }, 0);
    await refresh();
    expect(done).toBe(false);
    never.resolve();
  });
});
