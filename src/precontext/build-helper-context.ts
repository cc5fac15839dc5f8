import { getLogger } from '../observability/index.js';
import { resolvePreContextLimits } from './defaults.js';
import { detectTaskLoop } from './detect-task-loop.js';
import { type ContextLine, cleanValue, fitBlock, shortPath } from './fit-context.js';
import { summarizeAttempts } from './summarize-attempts.js';
import type { PreContextBuildOptions } from './types.js';

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
  const logger = input.logger ?? getLogger();
  const { attempts, corrupt } = summarizeAttempts(input.dispatches);
  const upTo = attempts.filter((a) => a.attempt <= input.attempt);
  if (!Number.isInteger(input.attempt) || input.attempt < 1 || upTo.length === 0) {
    logger.warn({ kind: 'helper', attempt: input.attempt, corrupt }, 'pre-context skipped: no readable attempt');
    return '';
  }
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
