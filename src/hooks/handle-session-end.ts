import { agentSessionId } from '../ledger/light.js';
import { endSessionQuickly } from './end-session-quickly.js';
import { sessionFiles } from './hook-paths.js';
import { appendJournal } from './journal.js';
import type { HookInput, JournalEntry } from './types.js';
import { BUSY_TIMEOUT_MS, withHookLedger } from './with-hook-ledger.js';

/** @default 700 ms: how long SessionEnd waits for a live fold of its session (a Stop still folding) inside Claude's 1.5 s. */
const SESSION_END_WAIT_MS = 700;

/**
 * SessionEnd. Right after a Stop that folded everything (nothing in the journal, the transcript
 * unchanged but for lines no import reads), it only closes the record (end-session-quickly.ts),
 * without loading the fold. Otherwise the end is written to the journal first, then folded with
 * what is left, measuring the workspace (a StopFailure that Claude started at the same moment may
 * not have folded the turn's files yet); the fold closes the record with its summary. When a live fold of the session keeps
 * its lock past SESSION_END_WAIT_MS, the journal keeps the end and the next fold of any session in
 * the workspace closes it (said in the hooks' log).
 */
export async function handleSessionEnd(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const files = sessionFiles(workspace, agentSessionId(input.client, input.sessionId));
  const end: JournalEntry = { kind: 'end', at: now, ...(input.reason ? { reason: input.reason } : {}) };
  if (await endSessionQuickly(input, workspace, files, now, env)) return '';
  appendJournal(files.journal, files.dir, end);
  const { foldSession } = await import('./fold-session.js');
  const folded = await withHookLedger(workspace, env, BUSY_TIMEOUT_MS.end, (ledger) =>
    foldSession(ledger, workspace, input, now, { measure: true, waitMs: SESSION_END_WAIT_MS }),
  );
  if (!folded.folded) throw new Error('a fold of this session was still running: its end is kept in the journal for the next fold');
  return '';
}
