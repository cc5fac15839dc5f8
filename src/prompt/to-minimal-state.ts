import { shrinkText } from '../budget/index.js';
import type { Task } from '../ledger/index.js';
import { maskSecretsSync } from '../redact/index.js';
import { o200kCounter } from '../tokens/index.js';
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
  options: { resultTokens?: number } = {},
): MinimalState {
  const resultTokens = options.resultTokens ?? DEFAULT_RESULT_TOKENS;
  return {
    recent_history: completed.map((t) => {
      const entry: MinimalState['recent_history'][number] = {
        task_id: t.id,
        completed_at: new Date(t.completedAt ?? t.updatedAt).toISOString(),
      };
      if (t.intent) entry.intent = t.intent;
      if (t.resultSummary) {
        entry.result = maskSecretsSync(shrinkText(t.resultSummary, resultTokens, 'trim-tail', o200kCounter)).text;
      }
      return entry;
    }),
    active_blockers: blocked.map((t) => ({
      task_id: t.id,
      reason: maskSecretsSync(t.blockReason ?? 'blocked (no reason recorded)').text,
    })),
  };
}
