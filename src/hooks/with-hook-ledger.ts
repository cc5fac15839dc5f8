import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Ledger } from '../ledger/index.js';
import { openLedger } from '../ledger/light.js';
import { JOB_ENV } from './hook-jobs.js';

/** How long a hook's SQLite write waits for another process's lock: well inside the client's timeout. */
export const BUSY_TIMEOUT_MS = { start: 1_000, fold: 1_500, end: 400 } as const;

/**
 * @default 10 s: the same wait in a handed-off job's child (hook-jobs.ts), which no client waits for:
 * a fold that gave up after 1.5 s behind a long write (`baton sessions import` of a large store) would
 * leave the turn to the next hook's leftovers, and the commands that wait for the job would read without it.
 */
export const JOB_BUSY_TIMEOUT_MS = 10_000;

/** @default '.baton/baton.config.json' (as `baton init` writes it). */
const CONFIG_FILE = path.join('.baton', 'baton.config.json');

/**
 * Runs `use` with the workspace's ledger open, and closes it after. SQLite waits at most
 * `busyTimeoutMs` for a lock held by another process (a run writing at the same moment), so a hook
 * stays inside its client's timeout.
 */
export async function withHookLedger<T>(
  workspace: string,
  env: NodeJS.ProcessEnv,
  busyTimeoutMs: number,
  use: (ledger: Ledger) => Promise<T>,
): Promise<T> {
  const wait = env[JOB_ENV] === '1' ? Math.max(busyTimeoutMs, JOB_BUSY_TIMEOUT_MS) : busyTimeoutMs;
  const ledger = await openLedger({ spec: hookLedgerSpec(workspace, env), cwd: workspace, busyTimeoutMs: wait, connectTimeoutMs: 1_500 });
  try {
    return await use(ledger);
  } finally {
    await ledger.close();
  }
}

/**
 * The ledger spec a hook uses, as the CLI resolves it: BATON_LEDGER, else BATON_REDIS_URL, else
 * the config file's `ledger`, else undefined (the default `.baton/agent.db`). The config is read as
 * plain JSON (its schema would load zod, a third of a hook's budget); a config that does not parse
 * leaves the default, and `baton hooks status` reports the problem.
 */
function hookLedgerSpec(workspace: string, env: NodeJS.ProcessEnv): string | undefined {
  const explicit = env.BATON_LEDGER ?? env.BATON_REDIS_URL;
  if (explicit) return explicit;
  try {
    const config = JSON.parse(readFileSync(path.join(workspace, CONFIG_FILE), 'utf8')) as { ledger?: unknown };
    return typeof config.ledger === 'string' && config.ledger !== '' ? config.ledger : undefined;
  } catch {
    return undefined;
  }
}
