import { statSync } from 'node:fs';
import { agentSessionId } from '../ledger/light.js';
import { closeSession } from './close-session.js';
import { acquireFoldLock } from './fold-lock.js';
import type { SessionFiles } from './hook-paths.js';
import { readHookState } from './hook-state.js';
import { hasUnfolded } from './journal.js';
import { readTranscript } from './read-transcript.js';
import type { AgentClient, HookInput, HookSessionState } from './types.js';
import { BUSY_TIMEOUT_MS, withHookLedger } from './with-hook-ledger.js';

/** @default 64 KiB: a transcript grown by more since the last fold read it is read again (the full SessionEnd). */
const MAX_TAIL_BYTES = 64 * 1024;

/**
 * Lines a client appends to its transcript after the turn's Stop that no import reads (the
 * session parsers skip them): Claude Code's `last-prompt`, Codex's `task_complete` and
 * `token_count` events. Any other line sends SessionEnd through the full fold.
 */
const AFTER_STOP: Readonly<Record<AgentClient, (line: Record<string, unknown>) => boolean>> = {
  claude: (line) => line.type === 'last-prompt',
  codex: (line) => {
    const payload = line.payload as { type?: unknown } | undefined;
    return line.type === 'event_msg' && (payload?.type === 'task_complete' || payload?.type === 'token_count');
  },
  gemini: () => false,
};

/**
 * SessionEnd right after a Stop that folded everything: the journal is empty, no fold holds or
 * left anything, and the transcript is as the last fold read it (or grew only by AFTER_STOP
 * lines). Then the end only closes the record (a session without one stays without, as the full
 * fold leaves it), and the fold, git and the transcript's parser never load. Says whether it did.
 */
export async function endSessionQuickly(
  input: HookInput,
  workspace: string,
  files: SessionFiles,
  now: number,
  env: NodeJS.ProcessEnv,
): Promise<boolean> {
  // A fold lock (a live fold, or a dead one whose takeover the full fold logs) sends SessionEnd through the fold.
  if (hasUnfolded(files) || statSync(files.lock, { throwIfNoEntry: false }) !== undefined) return false;
  const state = readHookState(files.state);
  if (!state || !(await transcriptAsRead(input, state))) return false;
  const lock = await acquireFoldLock(files.lock, Date.now, 0);
  if (!lock) return false;
  try {
    if (hasUnfolded(files)) return false;
    const id = agentSessionId(input.client, input.sessionId);
    await withHookLedger(workspace, env, BUSY_TIMEOUT_MS.end, (ledger) => closeSession(ledger, id, now, input.reason));
    return true;
  } finally {
    lock.release();
  }
}

/** Whether the transcript holds nothing the last fold's import did not read. */
async function transcriptAsRead(input: HookInput, state: HookSessionState): Promise<boolean> {
  const file = input.transcriptPath;
  if (!file) return true;
  const seen = state.transcriptSeen;
  if (seen?.file !== file) return false;
  // Shrunk (read from 0) or grown by more than MAX_TAIL_BYTES (read from later): not as read.
  const range = await readTranscript(file, seen.bytes, MAX_TAIL_BYTES);
  if (!range || range.start !== seen.bytes) return false;
  if (range.size === seen.bytes) return true;
  const tail = range.bytes.toString('utf8');
  if (!tail.endsWith('\n')) return false;
  return tail
    .split('\n')
    .filter((line) => line.trim() !== '')
    .every((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return typeof parsed === 'object' && parsed !== null && AFTER_STOP[input.client](parsed as Record<string, unknown>);
      } catch {
        return false;
      }
    });
}
