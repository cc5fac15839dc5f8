import type { AcceptanceCriterion } from '../ledger/index.js';
import { maskSecretsSync } from '../redact/index.js';
import type { WorkspaceOps } from './types.js';

export interface CriterionFailure {
  index: number;
  error: string;
}

/**
 * Runs every criterion's check command and returns the failures as one-line validation errors
 * naming the criterion and the command (what the RETRY CONTEXT shows the next attempt).
 */
export async function runCriterionChecks(
  criteria: readonly AcceptanceCriterion[],
  workspace: WorkspaceOps,
  checkTimeoutMs: number,
): Promise<CriterionFailure[]> {
  const failures: CriterionFailure[] = [];
  for (const [index, criterion] of criteria.entries()) {
    if (!criterion.check) continue;
    const run = await workspace.runCheck(criterion.check, { timeoutMs: checkTimeoutMs });
    if (!run.ok) failures.push({ index, error: checkError(criterion.description, criterion.check, run) });
  }
  return failures;
}

/** `<criterion> - check failed: <command> (exit 1): <last output line>` */
export function checkError(
  description: string,
  command: string,
  run: { exitCode?: number; timedOut?: boolean; output: string },
  label = 'check failed',
): string {
  const status = run.timedOut ? 'timed out' : `exit ${run.exitCode ?? '?'}`;
  const last = run.output.trim().split('\n').at(-1)?.trim() ?? '';
  const detail = last ? `: ${last.length > 120 ? `${last.slice(0, 119)}…` : last}` : '';
  return maskSecretsSync(`${description} - ${label}: ${command} (${status})${detail}`).text;
}
