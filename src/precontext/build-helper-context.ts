import { resolvePreContextLimits, TASK_LOOP_ATTEMPTS } from './defaults.js';
import { cleanValue, fitBlock, shortPath } from './fit-context.js';
import { type AttemptSummary, readAttempts } from './summarize-attempts.js';
import type { ContextLine, PreContextBuildOptions } from './types.js';

export interface HelperContextInput extends PreContextBuildOptions {
  /** The attempt whose validation just failed. */
  attempt: number;
  /** This task's dispatches up to and including this attempt, newest first. */
  dispatches: readonly unknown[];
}

/**
 * Builds seed 000's HELPER AGENT CONTEXT (at most 8 lines with the trailing blank line): which
 * attempt this is, the last 2 attempts (files touched and first validation error, oldest first
 * as in seed 000's examples) and the loop warning when the last 3 attempts share their first
 * validation error. Returns '' with a logged warning when no attempt is readable.
 * Trusts its types; a corrupt record of a shared ledger is skipped (seed 000's safe access).
 */
export function buildHelperContext(input: HelperContextInput): string {
  const upTo = readAttempts(input, input.attempt + 1, 'helper', 'attempt');
  if (!upTo) return '';
  const limits = resolvePreContextLimits(input.limits);
  const lines: ContextLine[] = [
    {
      text: `Attempt #${input.attempt} (${input.attempt - 1} previous retries) - validation failed`,
      fixed: true,
      priority: 100,
    },
  ];
  const shown = upTo.slice(-limits.helperMaxAttempts);
  shown.forEach((a, i) => {
    const touched = [...a.filesCreated, ...a.filesUpdated.filter((f) => !a.filesCreated.includes(f))];
    const list = fitFileList(touched.slice(0, limits.maxFiles).map(shortPath));
    const files = list ? cleanValue(` touched: ${list}`) : '';
    const error = a.validationErrors[0] ?? a.result ?? a.outcome ?? 'unknown';
    lines.push({
      text: `Attempt ${a.attempt}${files ? ` ${files}` : ''} - error: "${cleanValue(error)}"`,
      // The newest attempt outlives older ones when lines or tokens run out.
      priority: 60 + i,
      quoted: true,
    });
  });
  if (detectTaskLoop(upTo)) {
    lines.push({ text: 'Task appears stuck in validation loop - try different approach', priority: 90 });
  }
  return fitBlock('HELPER AGENT', lines, 'Generate commands to verify ALL failed criteria from ALL attempts.', limits);
}

/**
 * Seed 000's loop detection: true when the last 3 attempts share their first validation error.
 * Attempts without a validation error (a provider failure, an interruption) never form a loop.
 */
export function detectTaskLoop(attempts: readonly Pick<AttemptSummary, 'validationErrors'>[]): boolean {
  if (attempts.length < TASK_LOOP_ATTEMPTS) return false;
  const firsts = attempts.slice(-TASK_LOOP_ATTEMPTS).map((a) => a.validationErrors[0] ?? '');
  return firsts[0] !== '' && firsts.every((e) => e === firsts[0]);
}

/** File names give way to the error on a helper line: keep whole names within ~40 characters. */
function fitFileList(files: readonly string[]): string {
  let out = '';
  for (const file of files) {
    const next = out ? `${out}, ${file}` : file;
    if (out && next.length > 40) break;
    out = next;
  }
  return out;
}
