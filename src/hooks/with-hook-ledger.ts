import type { Ledger } from '../ledger/index.js';
import { JOB_ENV } from './hook-jobs.js';
import { openHookLedger } from './open-hook-ledger.js';

/** How long a hook's SQLite write waits for another process's lock: well inside the client's timeout. */
export const BUSY_TIMEOUT_MS = { start: 1_000, fold: 1_500, end: 400 } as const;

/**
 * @default 10 s: the same wait in a handed-off job's child (hook-jobs.ts), which no client waits for:
 * a fold that gave up after 1.5 s behind a long write (`baton sessions import` of a large store) would
 * leave the turn to the next hook's leftovers, and the commands that wait for the job would read without it.
 */
export const JOB_BUSY_TIMEOUT_MS = 10_000;

/** Runs `use` with the workspace's ledger open, and closes it after. */
export async function withHookLedger<T>(
  workspace: string,
  env: NodeJS.ProcessEnv,
  busyTimeoutMs: number,
  use: (ledger: Ledger) => Promise<T>,
): Promise<T> {
  const wait = env[JOB_ENV] === '1' ? Math.max(busyTimeoutMs, JOB_BUSY_TIMEOUT_MS) : busyTimeoutMs;
  const ledger = await openHookLedger(workspace, env, wait);
  try {
    return await use(ledger);
  } finally {
    await ledger.close();
  }
}
