import type { Ledger } from '../../../ledger/index.js';
import { importSessions } from '../../../sessions/light.js';
import type { CliIO } from '../../context.js';
import { sessionWorkspace } from '../sessions/workspace-sessions.js';

/** At most this long for the import before a run's first prompt (the session-start hook allows as much). */
export const RUN_IMPORT_BUDGET_MS = 2_000;

/**
 * Before `baton run` builds its first task prompt: imports what is new in the agent CLIs' own
 * stores (incremental), so the prompt reads hook-recorded and imported sessions alike, as
 * `baton status` and `baton refresh` do. Best effort and bounded by `budgetMs`: a slow or
 * unreadable store leaves the prompt with what the ledger already holds.
 */
export async function importSessionsFirst(io: CliIO, ledger: Ledger, dir: string, budgetMs = RUN_IMPORT_BUDGET_MS): Promise<void> {
  const importing = (async () => {
    await importSessions(ledger, { cwd: dir, workspace: await sessionWorkspace(dir), env: io.env });
  })().catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, budgetMs);
    timer.unref();
  });
  await Promise.race([importing, late]);
  clearTimeout(timer);
}
