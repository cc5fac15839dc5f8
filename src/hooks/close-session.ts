import type { AgentSessionData, Ledger } from '../ledger/index.js';
import { endAgentSession, getAgentSession } from '../ledger/light.js';
import { cutOffEndReason, summarizeSession } from './session-summary.js';

/** Closes the session's record with its summary (idempotent: a second end keeps the first's time). */
export async function closeSession(ledger: Ledger, id: string, at: number, reason: string | undefined): Promise<void> {
  const current = await getAgentSession(ledger, id);
  if (!current) return;
  // A session whose last turn was cut off (a usage limit) ended because of it, whatever SessionEnd says.
  const why = current.data.cutOff ? cutOffEndReason(current.data.cutOff.error) : reason;
  const data: AgentSessionData = { ...current.data, lastActivityAt: at, endedAt: at, ...(why ? { endReason: why } : {}) };
  data.summary = summarizeSession(data, 'ended');
  await endAgentSession(ledger, id, data);
}
