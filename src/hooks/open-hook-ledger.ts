import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Ledger } from '../ledger/index.js';
import { openLedger } from '../ledger/light.js';

/** @default '.baton/baton.config.json' (as `baton init` writes it). */
const CONFIG_FILE = path.join('.baton', 'baton.config.json');

/**
 * The ledger spec a hook uses, as the CLI resolves it: BATON_LEDGER, else BATON_REDIS_URL, else
 * the config file's `ledger`, else undefined (the default `.baton/agent.db`). The config is read as
 * plain JSON (its schema would load zod, a third of a hook's budget); a config that does not parse
 * leaves the default, and `baton hooks status` reports the problem.
 */
export function hookLedgerSpec(workspace: string, env: NodeJS.ProcessEnv): string | undefined {
  const explicit = env.BATON_LEDGER ?? env.BATON_REDIS_URL;
  if (explicit) return explicit;
  try {
    const config = JSON.parse(readFileSync(path.join(workspace, CONFIG_FILE), 'utf8')) as { ledger?: unknown };
    return typeof config.ledger === 'string' && config.ledger !== '' ? config.ledger : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens the workspace's ledger for a hook: SQLite waits at most `busyTimeoutMs` for a lock held by
 * another process (a run writing at the same moment), so a hook stays inside its client's timeout.
 */
export async function openHookLedger(workspace: string, env: NodeJS.ProcessEnv, busyTimeoutMs: number): Promise<Ledger> {
  return openLedger({ spec: hookLedgerSpec(workspace, env), cwd: workspace, busyTimeoutMs, connectTimeoutMs: 1_500 });
}
