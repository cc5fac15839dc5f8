import type { LedgerRecords } from '../ledger/index.js';
import { IMPORT_WITHIN_MS, importSessions, waitAtMost } from '../sessions/light.js';

/**
 * `baton run`'s `refreshSessions`: before each try's prompt is built, imports what is new in the
 * agent CLIs' own stores for the workspace (incremental: an unchanged file is not opened, a grown
 * one is read from its offset), so a session another CLI ran while the run was going — between
 * two tries — is in the next try's prompt. Bounded: waits at most IMPORT_WITHIN_MS (as the
 * session-start hook and the run's first import do), then the prompt is built from what the
 * ledger holds and the import goes on in the background. One import runs at a time: a try asking
 * while one runs gets the next one (started when it ends; tries asking meanwhile share it), so it
 * sees files that appeared after the running one looked. Never throws.
 */
export function sessionRefresher(
  ledger: LedgerRecords,
  options: { cwd: string; workspace: string; env: NodeJS.ProcessEnv },
): () => Promise<void> {
  return coalesced(() => importSessions(ledger, options), IMPORT_WITHIN_MS);
}

/** Runs `work` one at a time (a caller arriving while it runs waits for the next run, shared), each caller waiting at most `budgetMs`. */
export function coalesced(work: () => Promise<unknown>, budgetMs: number): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const run: Promise<void> = work().then(
      () => undefined,
      () => undefined,
    );
    running = run;
    void run.then(() => {
      if (running === run) running = undefined;
    });
    return run;
  };
  return () => {
    let mine: Promise<void>;
    if (running === undefined) mine = start();
    else
      mine = next ??= running.then(() => {
        next = undefined;
        return start();
      });
    return waitAtMost(mine, budgetMs);
  };
}
