import { agentSessionId } from '../ledger/index.js';
import { foldLeftovers } from './fold-leftovers.js';
import { foldSession } from './fold-session.js';
import { sessionFiles } from './hook-paths.js';
import { appendJournal } from './journal.js';
import type { HookInput } from './types.js';
import { BUSY_TIMEOUT_MS, withHookLedger } from './with-hook-ledger.js';

/**
 * Stop / AfterAgent / StopFailure (a cut-off turn, noted first): the turn ended; fold it (one
 * dispatch when it did something), then what other sessions left. Its own module: the end of a
 * turn loads neither the context renderer nor the tokenizer SessionStart uses.
 */
export async function handleStop(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const files = sessionFiles(workspace, agentSessionId(input.client, input.sessionId));
  if (input.stopError) appendJournal(files.journal, files.dir, { kind: 'cut-off', at: now, error: input.stopError });
  await withHookLedger(workspace, env, BUSY_TIMEOUT_MS.fold, async (ledger) => {
    await foldSession(ledger, workspace, input, now);
    await foldLeftovers(ledger, workspace, files.dir, files.state, now);
  });
  return '';
}
