import { appendFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AgentSessionData, Ledger } from '../ledger/index.js';
import { agentSessionId, endAgentSession, listAgentSessions } from '../ledger/light.js';
import { isAgentClient } from './client-specs.js';
import { foldSession } from './fold-session.js';
import { readHookState } from './hook-state.js';
import { readTranscript } from './read-transcript.js';
import { summarizeSession } from './session-summary.js';
import type { JournalEntry } from './types.js';

/** @default 5: other sessions' leftovers one hook folds at most (the rest wait for the next hook). */
const MAX_LEFTOVERS = 5;

/** @default 6 h: a session with no hook for this long, and no SessionEnd, was abandoned (its client died). */
const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000;

/**
 * Folds what other sessions of the workspace left behind and nobody is folding: a batch whose
 * fold died midway (its folding file, its lock free or held by a dead process), or a journal
 * that ends with its session's end (a SessionEnd that could not fold in time). Their files are
 * not measured (the workspace has moved on). A journal of a session still running is left alone:
 * its own next hook folds it.
 */
export async function foldLeftovers(
  ledger: Ledger,
  workspace: string,
  sessionsDir: string,
  currentState: string,
  now: number,
): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return;
  }
  const bases = new Set<string>();
  const current = path.basename(currentState, '.json');
  for (const name of names) {
    if (name.startsWith(`${current}.`)) continue;
    const folding = /^(.+)\.folding\.\d+\.jsonl$/.exec(name);
    if (folding?.[1]) bases.add(folding[1]);
    else if (name.endsWith('.jsonl') && (await endedOrAbandoned(path.join(sessionsDir, name), now)))
      bases.add(name.slice(0, -'.jsonl'.length));
  }
  for (const base of [...bases].slice(0, MAX_LEFTOVERS)) {
    const stateFile = path.join(sessionsDir, `${base}.json`);
    if (stateFile === currentState) continue;
    const state = readHookState(stateFile);
    if (!state) continue;
    const input = { client: state.client, event: 'session-end' as const, sessionId: state.sessionId, cwd: workspace };
    await foldSession(ledger, workspace, input, now, { measure: false });
  }
}

/**
 * Closes this workspace's sessions that are still marked active but have had no hook call for
 * ABANDONED_AFTER_MS (a client killed before its SessionEnd): what their journals still hold
 * (tool calls, failures) is folded in without measuring the workspace, which has moved on since,
 * and the record ends with reason `abandoned`. Run at a session start.
 */
export async function closeAbandonedSessions(ledger: Ledger, workspace: string, currentId: string, now: number): Promise<void> {
  const active = await listAgentSessions(ledger, { workspace, status: 'active', limit: 20, includeEmpty: true, includeSupervised: true });
  for (const record of active) {
    if (record.id === currentId || now - record.data.lastActivityAt <= ABANDONED_AFTER_MS) continue;
    const { client, clientSessionId } = record.data;
    if (!isAgentClient(client)) continue; // imported only (Copilot CLI): no hooks, nothing to fold
    const input = { client, event: 'session-end' as const, sessionId: clientSessionId, cwd: workspace };
    await foldSession(ledger, workspace, input, now, { measure: false });
    const current =
      (await ledger.getRecord<AgentSessionData>('agent_sessions', agentSessionId(client, clientSessionId)))?.data ?? record.data;
    const data: AgentSessionData = { ...current, endedAt: current.lastActivityAt, endReason: 'abandoned' };
    data.summary = summarizeSession(data, 'ended');
    await endAgentSession(ledger, record.id, data);
  }
}

/**
 * Whether a journal's last line is a session's end; a journal untouched for ABANDONED_AFTER_MS
 * (its client killed before a Stop, so its session may have no record yet) gets its end here,
 * reason `abandoned`, at its last write.
 */
async function endedOrAbandoned(file: string, now: number): Promise<boolean> {
  if (await endsWithEnd(file)) return true;
  const written = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  if (written === undefined || now - written <= ABANDONED_AFTER_MS) return false;
  appendFileSync(file, `${JSON.stringify({ kind: 'end', at: Math.floor(written), reason: 'abandoned' })}\n`);
  return true;
}

/** Whether a journal's last line is a session's end. */
async function endsWithEnd(file: string): Promise<boolean> {
  const last = (await readTranscript(file, 0, 512))?.bytes.toString('utf8').trimEnd().split('\n').pop() ?? '';
  try {
    return (JSON.parse(last) as JournalEntry).kind === 'end';
  } catch {
    return false;
  }
}
