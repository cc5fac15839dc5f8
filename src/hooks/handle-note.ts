import { agentSessionId } from '../ledger/light.js';
import { sessionFiles } from './hook-paths.js';
import { readHookState } from './hook-state.js';
import { appendJournal } from './journal.js';
import { toolEntry } from './tool-entry.js';
import type { HookInput } from './types.js';

/**
 * The per-tool-call and per-prompt hooks: one line appended to the session's journal, nothing
 * else (no ledger, no git), so a tool call costs about a node start. The journal is folded into
 * the ledger when the turn ends (Stop, AfterAgent), before a compaction, at the session's end, and
 * by the next session start of the session when it died in between. Returns what to print.
 *
 * Gemini has no event after a compression: the first AfterTool after one carries the context
 * (the only heavier case, once per compression).
 */
export async function handleNote(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const files = sessionFiles(workspace, agentSessionId(input.client, input.sessionId));
  if (input.event === 'prompt') {
    if (input.prompt) appendJournal(files.journal, files.dir, { kind: 'prompt', at: now, prompt: input.prompt });
    return '';
  }
  appendJournal(files.journal, files.dir, toolEntry(input, now));
  if (input.client !== 'gemini' || !readHookState(files.state)?.compactPending) return '';
  const { injectAfterCompression } = await import('./handle-session.js');
  return injectAfterCompression(input, workspace, 'AfterTool', now, env);
}
