import type { AgentSessionData, Ledger } from '../ledger/index.js';
import { agentSessionId, endAgentSession, listAgentSessions } from '../ledger/light.js';
import { isAgentClient } from './client-specs.js';
import { foldSession } from './fold-session.js';
import { summarizeSession } from './session-summary.js';

/** @default 6 h: a session with no hook for this long, and no SessionEnd, was abandoned (its client died). */
export const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000;

/**
 * Closes this workspace's sessions that are still marked active but have had no hook call for
 * ABANDONED_AFTER_MS (a client killed before its SessionEnd): what their journals still hold
 * (tool calls, failures) is folded in without measuring the workspace, which has moved on since,
 * and the record ends with reason `abandoned`. Run at a session start; returns the ids closed.
 */
export async function closeAbandonedSessions(ledger: Ledger, workspace: string, currentId: string, now: number): Promise<string[]> {
  const active = await listAgentSessions(ledger, { workspace, status: 'active', limit: 20, includeEmpty: true, includeSupervised: true });
  const abandoned = active.filter((record) => record.id !== currentId && now - record.data.lastActivityAt > ABANDONED_AFTER_MS);
  for (const record of abandoned) {
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
  return abandoned.map((record) => record.id);
}
