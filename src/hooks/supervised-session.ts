import { agentSessionId, endAgentSession, upsertAgentSession } from '../ledger/light.js';
import { freshState } from './hook-state.js';
import { newSessionData } from './session-record.js';
import type { HookInput } from './types.js';
import { withHookLedger } from './with-hook-ledger.js';

/**
 * A session `baton run` started (BATON_SUPERVISED in its environment): the supervisor already
 * briefs it (the task prompt) and records it (the task's attempt, with its files and outcome), so
 * the hooks neither inject a context nor journal its turns. Its SessionStart only links the
 * client's session to the task and try (BATON_TASK_ID, BATON_ATTEMPT): a record with no turn,
 * which no window counts. Its SessionEnd ends that record, so it is not left active until the
 * abandoned-session sweep closes it.
 */
export async function linkSupervisedSession(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const id = agentSessionId(input.client, input.sessionId);
  if (input.event === 'session-end') {
    const end = { endedAt: now, ...(input.reason ? { endReason: input.reason } : {}) };
    await withHookLedger(workspace, env, 1_000, (ledger) => endAgentSession(ledger, id, end));
  }
  if (input.event !== 'session-start') return '';
  const attempt = Number(env.BATON_ATTEMPT);
  const supervised = {
    ...(env.BATON_TASK_ID ? { taskId: env.BATON_TASK_ID } : {}),
    ...(Number.isSafeInteger(attempt) && attempt > 0 ? { attempt } : {}),
  };
  const data = { ...newSessionData(input, workspace, freshState(input, now), now), supervised };
  await withHookLedger(workspace, env, 1_000, (ledger) => upsertAgentSession(ledger, id, data, () => ({ supervised })));
  return '';
}
