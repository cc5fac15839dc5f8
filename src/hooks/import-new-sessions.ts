import type { Ledger } from '../ledger/index.js';
import { importSessions } from '../sessions/light.js';

/** At most this long for the import at session start: well inside the hook's 6 s deadline. */
export const IMPORT_BUDGET_MS = 2_000;

/**
 * Best effort: imports what is new in the agent CLIs' own stores (incremental, so an unchanged file
 * is not opened) before the context is built, so a session whose hooks never ran (an untrusted
 * Codex) reaches the next one. Bounded by `budgetMs`; a failure or a slow store leaves the context
 * as the ledger has it.
 */
export async function importNewSessions(
  ledger: Ledger,
  workspace: string,
  env: NodeJS.ProcessEnv,
  budgetMs = IMPORT_BUDGET_MS,
): Promise<void> {
  const importing = importSessions(ledger, { cwd: workspace, workspace, env }).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, budgetMs);
    timer.unref();
  });
  await Promise.race([importing, late]);
  clearTimeout(timer);
}
