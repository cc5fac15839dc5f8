import { agentSessionId } from '../ledger/light.js';
import { geminiPromptTokens } from './gemini-compression.js';
import { sessionFiles } from './hook-paths.js';
import { readHookState, writeHookState } from './hook-state.js';
import { appendJournal } from './journal.js';
import type { HookInput } from './types.js';

/**
 * Gemini's BeforeAgent, once per prompt: notes the prompt, and injects the context when Gemini is
 * about to compress. Gemini has no event after a compression; it compresses before a model request
 * when the last prompt's token count (its transcript's tail) reaches its threshold, so a count past
 * it here means this turn starts with one: the work so far is folded and the context goes in with
 * the prompt, once per count. A compression an older install's PreCompress saw (the state's
 * `compactPending`) is injected here too. Loads the ledger only then: a plain prompt costs a Node start.
 */
export async function handleBeforeAgent(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const files = sessionFiles(workspace, agentSessionId(input.client, input.sessionId));
  if (input.prompt) appendJournal(files.journal, files.dir, { kind: 'prompt', at: now, prompt: input.prompt });
  const state = readHookState(files.state);
  const count = await geminiPromptTokens(input.transcriptPath);
  const seen = count === undefined || state?.compressedAtTokens === count.tokens;
  if (!state?.compactPending && (!count?.due || seen)) return '';
  const { foldBeforeCompression, injectAfterCompression } = await import('./handle-session.js');
  if (!state?.compactPending) {
    appendJournal(files.journal, files.dir, { kind: 'compact', at: now, trigger: 'auto' });
    await foldBeforeCompression(input, workspace, now, env);
  }
  // Once per count: the next prompt before Gemini records a new one is not told again.
  const current = readHookState(files.state);
  if (current && count) writeHookState(files.state, { ...current, compressedAtTokens: count.tokens });
  return injectAfterCompression(input, workspace, 'BeforeAgent', now, env);
}
