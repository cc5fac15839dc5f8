import { statSync } from 'node:fs';
import { agentSessionId } from '../ledger/light.js';
import { acquireFoldLock } from './fold-lock.js';
import { closeSession } from './session-record.js';
import { type SessionFiles, sessionFiles } from './hook-paths.js';
import { readHookState } from './hook-state.js';
import { appendJournal, hasUnfolded } from './journal.js';
import { readTranscript } from './read-transcript.js';
import type { AgentClient, HookInput, HookSessionState } from './types.js';
import { BUSY_TIMEOUT_MS, withHookLedger } from './with-hook-ledger.js';

/** @default 700 ms: how long SessionEnd waits for a live fold of its session (a Stop still folding) inside Claude's 1.5 s. */
const SESSION_END_WAIT_MS = 700;

/**
 * SessionEnd. Right after a Stop that folded everything (nothing in the journal, the transcript
 * unchanged but for lines no import reads), it only closes the record (endSessionQuickly),
 * without loading the fold. Otherwise the end is written to the journal first, then folded with
 * what is left, measuring the workspace (a StopFailure that Claude started at the same moment may
 * not have folded the turn's files yet); the fold closes the record with its summary. When a live fold of the session keeps
 * its lock past SESSION_END_WAIT_MS, the journal keeps the end and the next fold of any session in
 * the workspace closes it (said in the hooks' log).
 */
export async function handleSessionEnd(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const files = sessionFiles(workspace, agentSessionId(input.client, input.sessionId));
  if (await endSessionQuickly(input, workspace, files, now, env)) return '';
  appendJournal(files.journal, files.dir, { kind: 'end', at: now, ...(input.reason ? { reason: input.reason } : {}) });
  const { foldSession } = await import('./fold-session.js');
  const folded = await withHookLedger(workspace, env, BUSY_TIMEOUT_MS.end, (ledger) =>
    foldSession(ledger, workspace, input, now, { waitMs: SESSION_END_WAIT_MS }),
  );
  if (!folded.folded) throw new Error('a fold of this session was still running: its end is kept in the journal for the next fold');
  return '';
}

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
async function endSessionQuickly(
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
