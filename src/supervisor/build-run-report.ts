import type { Dispatch, LedgerCore, TaskStatus } from '../ledger/index.js';
import { allDispatches } from './attempt-budget.js';
import { FLAGGED_PREFIX } from './site-completion.js';
import { checkReportOptions } from './run-plan-schema.js';

/** One provider try in the report (snake_case: the issue's `--json` shape). */
export interface RunReportAttempt {
  attempt: number;
  provider: string;
  outcome: string;
  /** The signal that ended the agent (killed_by_signal), only when one did. */
  signal?: string;
  /** What the commit policy flagged and committed anyway, one line each (only when it did). */
  flagged?: string[];
  files_created: string[];
  files_updated: string[];
  validation_errors: string[];
  injected_context: string;
  /** The run (or worker) that made this try: `<host>:<pid>:<id>`. */
  claimed_by?: string;
}

export interface RunReportTask {
  id: string;
  status: TaskStatus | 'missing';
  attempts: RunReportAttempt[];
  /** Whether this run made any of the task's tries (absent when the report has no owner). */
  ran_here?: boolean;
  /** With --queue: why the task's job failed on every delivery (no worker could run it). */
  job_error?: string;
}

/** `baton run --json`'s final report. */
export interface RunReport {
  tasks: RunReportTask[];
  /** When several runs shared the plan: who ran what. */
  shared?: {
    /** This run's owner id. */
    owner: string;
    /** Tasks this run made tries of. */
    ran_here: string[];
    /** Tasks only other runs (or workers) made tries of. */
    ran_by_others: string[];
  };
}

/**
 * Builds the report from the ledger (so a resumed run reports the crashed run's tries too).
 * With `owner`, it says which tasks this run ran and which other runs ran.
 */
export async function buildRunReport(ledger: LedgerCore, taskIds: readonly string[], options: { owner?: string } = {}): Promise<RunReport> {
  checkReportOptions(options);
  const tasks: RunReportTask[] = [];
  const ranHere: string[] = [];
  const ranByOthers: string[] = [];
  // All read at once: the end of a 200-task run waited on 400 round trips one after another.
  const [found, histories] = await Promise.all([ledger.getTasks(taskIds), Promise.all(taskIds.map((id) => allDispatches(ledger, id)))]);
  for (const [i, id] of taskIds.entries()) {
    const task = found[i];
    const dispatches: Dispatch[] = histories[i] ?? [];
    dispatches.sort((a, b) => a.seq - b.seq);
    const here = options.owner !== undefined && dispatches.some((d) => d.claimedBy === options.owner);
    if (here) ranHere.push(id);
    else if (dispatches.length > 0) ranByOthers.push(id);
    tasks.push({
      id,
      status: task?.status ?? 'missing',
      attempts: dispatches.map((d) => ({
        attempt: d.attempt,
        provider: d.provider,
        outcome: d.outcome ?? d.status,
        ...(d.signal === undefined ? {} : { signal: d.signal }),
        ...flaggedIn(d.result),
        files_created: d.filesCreated,
        files_updated: d.filesUpdated,
        validation_errors: d.validationErrors,
        injected_context: d.injectedContext ?? '',
        ...(d.claimedBy ? { claimed_by: d.claimedBy } : {}),
      })),
      ...(options.owner !== undefined ? { ran_here: here } : {}),
    });
  }
  return {
    tasks,
    ...(options.owner !== undefined ? { shared: { owner: options.owner, ran_here: ranHere, ran_by_others: ranByOthers } } : {}),
  };
}

/** The lines site-completion.ts adds to an attempt's result for what the commit policy flagged. */
function flaggedIn(result: string | undefined): { flagged?: string[] } {
  const lines = (result ?? '').split('\n').filter((line) => line.startsWith(FLAGGED_PREFIX));
  return lines.length > 0 ? { flagged: lines.map((line) => line.slice(FLAGGED_PREFIX.length)) } : {};
}
