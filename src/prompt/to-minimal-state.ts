import type { AgentSessionRecord, Task } from '../ledger/index.js';
import { maskSecretsSync } from '../redact/index.js';
import { cutMasked, sessionFacts } from './session-facts.js';
import type { MinimalState } from './types.js';

/** Token cap of one result summary in recent_history. @default 60 */
export const DEFAULT_RESULT_TOKENS = 60;

/**
 * Maps ledger tasks to seed 001's MinimalState. Pure. `completed` is newest first (the ledger's
 * order) and stays so; long result summaries are cut to `resultTokens`; secrets are masked.
 */
export function toMinimalState(
  completed: readonly Task[],
  blocked: readonly Task[],
  options: { resultTokens?: number; sessions?: readonly AgentSessionRecord[] } = {},
): MinimalState {
  const resultTokens = options.resultTokens ?? DEFAULT_RESULT_TOKENS;
  const state: MinimalState = {
    recent_history: completed.map((t) => {
      const entry: MinimalState['recent_history'][number] = {
        task_id: t.id,
        completed_at: new Date(t.completedAt ?? t.updatedAt).toISOString(),
      };
      if (t.intent) entry.intent = t.intent;
      if (t.resultSummary) entry.result = cutMasked(t.resultSummary, resultTokens);
      return entry;
    }),
    active_blockers: blocked.map((t) => ({
      task_id: t.id,
      reason: maskSecretsSync(t.blockReason ?? 'blocked (no reason recorded)').text,
    })),
  };
  const sessions = options.sessions ?? [];
  if (sessions.length > 0) {
    state.recent_sessions = sessions.map((s) => {
      const entry: NonNullable<MinimalState['recent_sessions']>[number] = {
        session_id: s.id,
        last_active: new Date(s.data.lastActivityAt).toISOString(),
        status: s.status ?? 'active',
        summary: cutMasked(s.data.summary, resultTokens * 2),
      };
      if (s.data.lastPrompt) entry.last_request = cutMasked(s.data.lastPrompt, resultTokens);
      return entry;
    });
    addFacts(state.recent_sessions, sessions, resultTokens);
  }
  return state;
}

/** The facts of the newest session that has any (a usage-limit cut, a failure, files, a plan) go on its entry. */
function addFacts(entries: NonNullable<MinimalState['recent_sessions']>, sessions: readonly AgentSessionRecord[], tokens: number): void {
  for (const [i, session] of sessions.entries()) {
    const facts = sessionFacts(session, tokens);
    const entry = entries[i];
    if (facts && entry) {
      entry.facts = facts;
      return;
    }
  }
}
