import type { Dispatch, DispatchStatus, LedgerCore } from '../ledger/index.js';
import { definedFields } from '../util/index.js';
import { HELPER_MODE } from '../precontext/index.js';

/** Where a claimed task's attempts continue, read from its dispatches. */
export interface AttemptBudget {
  /** One past the highest attempt in the ledger (resume after a crash or another run). */
  firstAttempt: number;
  /** The last attempt this run may start; below firstAttempt when none is left. */
  lastAttempt: number;
  /** Attempts that ran and failed (a verdict), as opposed to ones cut short (interrupted). */
  failed: number;
  /** The newest failed attempt's reason, for a block reason. */
  lastFailure?: string;
}

/**
 * Where a task's attempts continue, from every one of its dispatches. Counts only attempts that
 * really ran and failed against the task's limit: an attempt whose runner died (its dispatches
 * `interrupted`) is not a verdict, so it is given back. Without this a resumed task could be
 * blocked with "no attempt ran".
 */
export function attemptBudgetOf(dispatches: readonly Dispatch[], maxAttempts: number): AttemptBudget {
  let highest = 0;
  const failed = new Set<number>();
  let lastFailure: string | undefined;
  for (const d of dispatches) {
    highest = Math.max(highest, d.attempt);
    if (d.mode === HELPER_MODE || d.status !== 'failed') continue;
    failed.add(d.attempt);
    // Newest first: the first failure seen is the latest.
    lastFailure ??= d.validationErrors[0] ?? d.result ?? d.outcome;
  }
  const remaining = Math.max(0, maxAttempts - failed.size);
  return { firstAttempt: highest + 1, lastAttempt: highest + remaining, failed: failed.size, ...(lastFailure ? { lastFailure } : {}) };
}

/** Every dispatch of a task (with `status`: of that status only), read page by page. */
export async function allDispatches(ledger: LedgerCore, taskId: string, status?: DispatchStatus): Promise<Dispatch[]> {
  const out: Dispatch[] = [];
  let cursor: string | undefined;
  do {
    const page = await ledger.listDispatches({ taskId, limit: 200, ...definedFields({ status, cursor }) });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
