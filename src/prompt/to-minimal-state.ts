import type { AgentSessionRecord, Task } from '../ledger/index.js';
import { maskSecretsSync } from '../redact/index.js';
import { shrinkText } from '../budget/index.js';
import { o200kCounter } from '../tokens/index.js';
import type { MinimalState, RecentSessionFacts } from './types.js';

/**
 * Maps ledger tasks to seed 001's MinimalState. Pure. `completed` is newest first (the ledger's
 * order) and stays so; long result summaries are cut to `resultTokens`; secrets are masked.
 */
export function toMinimalState(
  completed: readonly Task[],
  blocked: readonly Task[],
  { resultTokens, sessions }: { resultTokens: number; sessions: readonly AgentSessionRecord[] },
): MinimalState {
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
    // The facts of the newest session that has any (a usage-limit cut, a failure, files, a plan) go on its entry.
    for (const [i, session] of sessions.entries()) {
      const facts = sessionFacts(session, resultTokens);
      if (facts) {
        state.recent_sessions[i]!.facts = facts;
        break;
      }
    }
  }
  return state;
}

/** Files named at most in a session's facts. @default 10 */
const MAX_FILES = 10;
/** Open plan items listed at most. @default 5 */
const MAX_PLAN = 5;

/** The text cut to `tokens` at its tail, secrets masked. */
export function cutMasked(text: string, tokens: number): string {
  return maskSecretsSync(shrinkText(text, tokens, 'trim-tail', o200kCounter)).text;
}

/**
 * What a next agent most needs from a session, beyond its summary: how its last turn was cut off
 * (a usage limit first), the newest failed command with its telling line, the files it changed and
 * its open plan. Each text cut to `tokens`, masked. Undefined when the session has none of them. Pure.
 */
export function sessionFacts(record: AgentSessionRecord, tokens: number): RecentSessionFacts | undefined {
  const data = record.data;
  const facts: RecentSessionFacts = {};
  const cutOff = cutOffWords(record);
  if (cutOff) facts.cut_off = cutOff;
  const failure = data.failures[data.failures.length - 1];
  if (failure) {
    facts.failed_command = {
      command: cutMasked(failure.command, tokens),
      ...(failure.exitCode === undefined ? {} : { exit_code: failure.exitCode }),
      ...(failure.error === undefined ? {} : { error: cutMasked(failure.error, tokens) }),
    };
  }
  const files = [...data.filesCreated, ...data.filesUpdated, ...data.filesDeleted];
  if (files.length > 0)
    facts.files_changed = files.length > MAX_FILES ? [...files.slice(0, MAX_FILES), `(+${files.length - MAX_FILES} more)`] : files;
  const plan = data.transcript?.openPlan ?? [];
  if (plan.length > 0) facts.open_plan = plan.slice(0, MAX_PLAN).map((item) => cutMasked(item, Math.ceil(tokens / 2)));
  return Object.keys(facts).length > 0 ? facts : undefined;
}

/** "the last turn was cut off by a usage limit", from the hooks' StopFailure or the transcript's ending. */
function cutOffWords(record: AgentSessionRecord): string | undefined {
  const error = record.data.cutOff?.error;
  if (error !== undefined) return `the last turn was cut off by ${error === 'rate_limit' ? 'a usage limit' : `an API error (${error})`}`;
  const ending = record.data.transcript?.ending;
  if (ending === 'usage_limit') return 'the last turn was cut off by a usage limit';
  if (ending === 'error')
    return `the session ended on an error${record.data.transcript?.endingMessage ? ` (${record.data.transcript.endingMessage.slice(0, 200)})` : ''}`;
  return undefined;
}
