import type { Dispatch, Task } from '../ledger/index.js';
import { buildMergeConflictContext } from '../precontext/index.js';
import type { ProviderChainOptions } from './provider-chain.js';
import type { CompletionGate } from './completion-gate.js';
import type { SiteOutcome, TaskSite } from './task-site.js';
import type { WorkspaceOps } from './types.js';
import { runCriterionChecks } from './validate-attempt.js';

/** A passing task re-run this many times after merge conflicts before its attempts count again. */
export const MAX_CONFLICT_RERUNS = 3;

/** Marks each line the commit policy flagged in an attempt's result (the run report lists them). */
export const FLAGGED_PREFIX = 'flagged: ';

/**
 * The gate a passing attempt goes through in its own site (a worktree): its result is committed
 * and integrated there, and what that came to becomes the attempt's verdict. A merge conflict
 * re-runs the task on the new base with a MERGE CONFLICT CONTEXT (up to MAX_CONFLICT_RERUNS of
 * them do not use up its attempts); a refusal fails the attempt with the reason, and a final one
 * (only the user can resolve it) blocks the task at once. What the commit policy flagged is added
 * to the attempt's result.
 */
export function siteCompletion(
  complete: NonNullable<TaskSite['complete']>,
  workspace: WorkspaceOps,
  task: Task,
  options: { chain: ProviderChainOptions; checkTimeoutMs: number },
): (attempt: number, dispatch: Dispatch) => Promise<CompletionGate> {
  const { ledger, onEvent, preContext } = options.chain;
  let conflicts = 0;
  // The task's checks as they are now: the helper agent may have written some since it started.
  const recheck = async () => {
    const criteria = (await ledger.getTask(task.id))?.acceptanceCriteria ?? task.acceptanceCriteria;
    return (await runCriterionChecks(criteria, workspace, options.checkTimeoutMs)).map((f) => f.error);
  };
  return async (attempt, dispatch) => {
    const outcome = await complete(attempt, { recheck, ...(options.chain.signal ? { signal: options.chain.signal } : {}) });
    const timings = outcome.kind === 'integrated' ? { timings: outcome.timings } : {};
    onEvent({ type: 'integration', taskId: task.id, attempt, ok: outcome.kind === 'integrated', detail: describe(outcome), ...timings });
    if (outcome.kind === 'integrated') {
      if (outcome.flagged.length > 0) {
        const flagged = outcome.flagged.map((line) => `${FLAGGED_PREFIX}${line}`).join('\n');
        await ledger.updateDispatch(dispatch.id, { result: dispatch.result ? `${dispatch.result}\n${flagged}` : flagged });
      }
      return { ok: true };
    }
    if (outcome.kind === 'refused') {
      return { ok: false, error: outcome.error, context: '', contextType: 'merge_conflict', extraAttempt: false, final: outcome.final };
    }
    conflicts += 1;
    return {
      ok: false,
      error: describe(outcome),
      context: buildMergeConflictContext({ files: outcome.files, changedBy: outcome.changedBy, limits: preContext.limits }),
      contextType: 'merge_conflict',
      extraAttempt: conflicts <= MAX_CONFLICT_RERUNS,
    };
  };
}

function describe(outcome: SiteOutcome): string {
  if (outcome.kind === 'integrated') return `into ${outcome.into}`;
  if (outcome.kind === 'refused') return outcome.error;
  const who = outcome.changedBy.map((a) => (a.taskId ? `task ${a.taskId}` : `commit "${a.subject}"`)).join(', ');
  return `merge conflict integrating into ${outcome.into}: ${outcome.files.slice(0, 5).join(', ')}${who ? ` (changed by ${who})` : ''}`;
}
