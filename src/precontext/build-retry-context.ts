import { resolvePreContextLimits } from './defaults.js';
import { cleanValue, fitBlock, touchedFileLines } from './fit-context.js';
import { type AttemptSummary, readAttempts } from './summarize-attempts.js';
import type { ContextLine, PreContextBuildOptions } from './types.js';

export interface RetryContextInput extends PreContextBuildOptions {
  /** The attempt about to start (2 or more). */
  attempt: number;
  /** This task's dispatches from earlier attempts, newest first (ledger.lastDispatches order). */
  dispatches: readonly unknown[];
}

/**
 * Builds seed 000's RETRY CONTEXT (at most 9 lines plus the trailing blank line): the previous
 * attempt's validation failures (at most 3), the files earlier attempts already created and
 * modified (at most 3 each), and the instruction to fix them. Returns '' with a logged warning
 * when there is no earlier attempt.
 * Trusts its types; a corrupt record of a shared ledger is skipped (seed 000's safe access).
 */
export function buildRetryContext(input: RetryContextInput): string {
  const earlier = readAttempts(input, input.attempt, 'retry', 'earlier attempt');
  if (!earlier) return '';
  const limits = resolvePreContextLimits(input.limits);
  const errors = failuresOf(earlier.at(-1)!).slice(0, limits.maxErrors);
  const lines: ContextLine[] = [
    { text: `Attempt #${input.attempt} - Previous validation failures:`, fixed: true, priority: 100 },
    ...errors.map((e, i) => ({ text: `- ${cleanValue(e)}`, priority: 80 - i * 20 })),
    ...touchedFileLines([...earlier].reverse(), limits.maxFiles, { created: ['Already created', 65], updated: ['Already modified', 55] }),
  ];
  return fitBlock('RETRY', lines, 'Focus on fixing validation failures listed above.', limits);
}

/** The previous attempt's validation errors, or what stopped it before validation could run. */
function failuresOf(attempt: AttemptSummary): string[] {
  if (attempt.validationErrors.length > 0) return attempt.validationErrors;
  if (attempt.outcome === 'interrupted') return ['previous attempt was interrupted before validation'];
  // The agent answered and no validation failure was recorded: it passed (the task is being run
  // again, e.g. after a reset), or its run stopped during validation. It did not end before it.
  if (attempt.outcome === 'ok' || attempt.outcome === 'agent_error') {
    return [`previous attempt (#${attempt.attempt}) recorded no validation failure; the task is being run again`];
  }
  const why = attempt.result ?? attempt.outcome ?? 'unknown failure';
  return [`previous attempt ended before validation: ${why}`];
}
