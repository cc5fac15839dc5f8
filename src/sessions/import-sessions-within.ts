import type { LedgerRecords } from '../ledger/index.js';
import { importSessions, type ImportSessionsOptions } from './import-sessions.js';

/** At most this long for an import before a context is built (a session-start hook, `baton run`'s first prompt). */
export const IMPORT_WITHIN_MS = 2_000;

/**
 * Best effort: imports what is new in the agent CLIs' own stores (incremental, so an unchanged file
 * is not opened) before a context is built, so a session whose hooks never ran (an untrusted
 * Codex) reaches the next one. Bounded by IMPORT_WITHIN_MS: a failure or a slow store leaves the context
 * as the ledger has it, and the import goes on in the background until the process ends.
 */
export async function importSessionsWithin(ledger: LedgerRecords, options: ImportSessionsOptions): Promise<void> {
  await waitAtMost(
    importSessions(ledger, options).catch(() => undefined),
    IMPORT_WITHIN_MS,
  );
}

/** Waits for `work` at most `budgetMs`; past that it goes on in the background (the timer keeps no process alive). */
export async function waitAtMost(work: Promise<unknown>, budgetMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, budgetMs);
    timer.unref();
  });
  await Promise.race([work, late]);
  clearTimeout(timer);
}
