import type { Ledger } from '../ledger/index.js';
import { openHookLedger } from './open-hook-ledger.js';

/** How long a hook's SQLite write waits for another process's lock: well inside the client's timeout. */
export const BUSY_TIMEOUT_MS = { start: 1_000, fold: 1_500, end: 400 } as const;

/** Runs `use` with the workspace's ledger open, and closes it after. */
export async function withHookLedger<T>(
  workspace: string,
  env: NodeJS.ProcessEnv,
  busyTimeoutMs: number,
  use: (ledger: Ledger) => Promise<T>,
): Promise<T> {
  const ledger = await openHookLedger(workspace, env, busyTimeoutMs);
  try {
    return await use(ledger);
  } finally {
    await ledger.close();
  }
}
