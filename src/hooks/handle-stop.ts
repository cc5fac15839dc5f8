import { agentSessionId } from '../ledger/light.js';
import { foldLeftovers } from './fold-leftovers.js';
import { foldSession } from './fold-session.js';
import { sessionFiles } from './hook-paths.js';
import { appendJournal } from './journal.js';
import type { HookInput } from './types.js';
import { BUSY_TIMEOUT_MS, withHookLedger } from './with-hook-ledger.js';

/**
 * @default 2 s: how long the end of a turn waits for a fold of its session that holds the lock.
 * Claude Code starts StopFailure and SessionEnd at the same moment: a SessionEnd that closes the
 * record first must not leave the cut-off unfolded in the journal (the session would read as
 * ended "other" instead of by its usage limit).
 */
const STOP_WAIT_MS = 2_000;

/**
 * Stop / AfterAgent / StopFailure (a cut-off turn, noted first): the turn ended; fold it (one
 * dispatch when it did something), then what other sessions left. Its own module: the end of a
 * turn loads neither the context renderer nor the tokenizer SessionStart uses.
 */
export async function handleStop(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const files = sessionFiles(workspace, agentSessionId(input.client, input.sessionId));
  if (input.stopError) appendJournal(files.journal, files.dir, { kind: 'cut-off', at: now, error: input.stopError });
  await withHookLedger(workspace, env, BUSY_TIMEOUT_MS.fold, async (ledger) => {
    await foldSession(ledger, workspace, input, now, { waitMs: STOP_WAIT_MS });
    await foldLeftovers(ledger, workspace, files.dir, files.state, now);
  });
  return '';
}
