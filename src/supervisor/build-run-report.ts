import type { Dispatch, LedgerCore, TaskStatus } from '../ledger/index.js';

/** One provider try in the report (snake_case: the issue's `--json` shape). */
export interface RunReportAttempt {
  attempt: number;
  provider: string;
  outcome: string;
  /** The signal that ended the agent (killed_by_signal), only when one did. */
  signal?: string;
  files_created: string[];
  files_updated: string[];
  validation_errors: string[];
  injected_context: string;
}

export interface RunReportTask {
  id: string;
  status: TaskStatus | 'missing';
  attempts: RunReportAttempt[];
}

/** `baton run --json`'s final report. */
export interface RunReport {
  tasks: RunReportTask[];
}

/** Builds the report from the ledger (so a resumed run reports the crashed run's tries too). */
export async function buildRunReport(ledger: LedgerCore, taskIds: readonly string[]): Promise<RunReport> {
  const tasks: RunReportTask[] = [];
  for (const id of taskIds) {
    const task = await ledger.getTask(id);
    const dispatches: Dispatch[] = [];
    let cursor: string | undefined;
    do {
      const page = await ledger.listDispatches({ taskId: id, limit: 200, ...(cursor ? { cursor } : {}) });
      dispatches.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    dispatches.sort((a, b) => a.seq - b.seq);
    tasks.push({
      id,
      status: task?.status ?? 'missing',
      attempts: dispatches.map((d) => ({
        attempt: d.attempt,
        provider: d.provider,
        outcome: d.outcome ?? d.status,
        ...(d.signal === undefined ? {} : { signal: d.signal }),
        files_created: d.filesCreated,
        files_updated: d.filesUpdated,
        validation_errors: d.validationErrors,
        injected_context: d.injectedContext ?? '',
      })),
    });
  }
  return { tasks };
}
