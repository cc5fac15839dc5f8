import { isBatonError } from '../errors/index.js';
import type { Ledger, LedgerRecord, SessionData } from '../ledger/index.js';
import { formatAge } from './continuation-state.js';

/** @default 3_600_000: §6.3 warns when the context is over an hour old. */
export const DEFAULT_STALE_AFTER_MS = 60 * 60 * 1000;

/**
 * §6.3 freshness warnings for a session: HEAD moved since its last refresh, or its last refresh
 * is over DEFAULT_STALE_AFTER_MS old (the agent's picture of the workspace dates from then). Pure.
 */
export function stalenessWarnings(session: LedgerRecord<SessionData> | undefined, current: { head?: string; now: number }): string[] {
  if (!session) return [];
  const warnings: string[] = [];
  const lastHead = session.data.lastHead;
  if (lastHead && current.head && lastHead !== current.head) {
    warnings.push(
      `Git HEAD moved since this session's last refresh (${lastHead.slice(0, 7)} -> ${current.head.slice(0, 7)}): files you read earlier may have changed; re-read before editing.`,
    );
  }
  const last = session.data.lastRefreshAt;
  if (last !== undefined && current.now - last > DEFAULT_STALE_AFTER_MS) {
    warnings.push(
      `This session's previous context is from ${formatAge(current.now - last)} (over an hour old): trust this refresh, not earlier context.`,
    );
  }
  return warnings;
}

/** Records this refresh on the session (created on first use). */
export async function touchSession(
  ledger: Ledger,
  sessionId: string,
  existing: LedgerRecord<SessionData> | undefined,
  update: { workspace: string; head?: string; now: number; taskId?: string },
): Promise<void> {
  const data: Partial<SessionData> = { workspace: update.workspace, lastHead: update.head, lastRefreshAt: update.now };
  const patch = { data, taskId: update.taskId };
  if (existing) {
    await ledger.updateRecord<SessionData>('sessions', sessionId, patch);
    return;
  }
  try {
    await ledger.createRecord<SessionData>('sessions', { id: sessionId, status: 'active', taskId: update.taskId, data });
  } catch (error) {
    // Another refresh of the same session (several task_ids at once, or two calls in flight)
    // created the record between our read and this write: update it instead.
    if (!isBatonError(error, 'LEDGER_CONFLICT')) throw error;
    await ledger.updateRecord<SessionData>('sessions', sessionId, patch);
  }
}
