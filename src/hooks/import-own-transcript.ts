import { stat } from 'node:fs/promises';
import type { AgentSessionData, Ledger } from '../ledger/index.js';
import { agentSessionId, getAgentSession } from '../ledger/light.js';
import { mergeSessionData, readSessionFile, sessionRecordData } from '../sessions/light.js';
import type { AgentSession } from '../sessions/index.js';
import { ensureSessionRecord } from './session-record.js';
import { cutOffEndReason } from './session-summary.js';
import type { HookInput, HookSessionState } from './types.js';

/**
 * Reads the session's own transcript (the hook input's `transcript_path`: Claude's JSONL, Codex's
 * rollout, Gemini's chat file) and merges what it holds into the session's record: every prompt,
 * tool call, failure with its exit code, plan and compaction. This is what the per-prompt and
 * per-tool-call hooks used to note one process at a time; the fold at the end of a turn now reads
 * it once. A missing or unreadable transcript changes nothing (the next session start's import
 * tries again). A transcript with no prompt and no tool call (a `claude mcp list`) makes no record.
 * The merge is the import's own (mergeSessionData: measured facts win, otherwise the newest or most
 * complete). Says whether it created the session's record or merged into it.
 */
export async function importOwnTranscript(
  ledger: Ledger,
  input: HookInput,
  workspace: string,
  state: HookSessionState,
  now: number,
): Promise<'created' | 'merged' | undefined> {
  if (!input.transcriptPath) return undefined;
  // A regular file only: a FIFO or a device would block the read.
  const info = await stat(input.transcriptPath).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  let session: AgentSession;
  try {
    session = (await readSessionFile(input.transcriptPath, { client: input.client })).session;
  } catch {
    return undefined;
  }
  if (session.parentId !== undefined) return undefined;
  const imported = sessionRecordData(session, workspace, now);
  if (imported.turns === 0 && imported.toolCalls === 0) return undefined;
  const id = agentSessionId(input.client, input.sessionId);
  const existed = Boolean(await getAgentSession(ledger, id));
  const record = await ensureSessionRecord(ledger, id, input, workspace, state, now);
  const merged = mergeSessionData(record.data, imported, { promptAt: lastPromptAt(session), hooked: true });
  await ledger.updateRecord<AgentSessionData>('agent_sessions', id, { data: withTranscriptCutOff(merged, session, now) });
  return existed ? 'merged' : 'created';
}

/**
 * A transcript that ends in a usage limit is the cut-off even when its StopFailure hook has not
 * folded yet: Claude Code starts StopFailure and SessionEnd at the same moment, and whichever folds
 * first must record the session as ended by the limit.
 */
function withTranscriptCutOff(data: AgentSessionData, session: AgentSession, now: number): AgentSessionData {
  if (session.ending !== 'usage_limit' || data.cutOff) return data;
  const next: AgentSessionData = { ...data, cutOff: { error: 'rate_limit', at: session.endedAt ?? now, turn: data.turns } };
  if (next.endedAt !== undefined) next.endReason = cutOffEndReason('rate_limit');
  return next;
}

function lastPromptAt(session: AgentSession): number | undefined {
  const prompt = session.events.findLast((event) => event.type === 'user');
  return prompt?.at;
}
