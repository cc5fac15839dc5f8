import { getLogger } from '../observability/index.js';
import { HELPER_MODE, resolvePreContextLimits } from './defaults.js';
import { cleanValue, fitBlock, touchedFileLines } from './fit-context.js';
import { readDispatch } from './summarize-attempts.js';
import type { ContextLine, PreContextBuildOptions } from './types.js';

export interface ProviderSwitchContextInput extends PreContextBuildOptions {
  /**
   * This task's latest dispatches, newest first (ledger.lastDispatches order). The first is the
   * try that just failed; the others supply files already touched and the last validation error.
   */
  dispatches: readonly unknown[];
}

/**
 * Builds seed 000's PROVIDER SWITCH CONTEXT (at most 8 lines with the trailing blank line) for the
 * next provider after `dispatches[0]` failed. Pure apart from the warning: returns '' and logs a
 * warning when there is no failed dispatch.
 * Trusts its types; a corrupt record of a shared ledger is skipped (seed 000's safe access).
 *
 * @example
 * buildProviderSwitchContext({ dispatches: await ledger.lastDispatches(taskId, 5) }) + prompt
 */
export function buildProviderSwitchContext(input: ProviderSwitchContextInput): string {
  const failed = readDispatch(input.dispatches[0]);
  if (!failed) {
    (input.logger ?? getLogger()).warn({ kind: 'circuit_breaker' }, 'pre-context skipped: no readable failed dispatch');
    return '';
  }
  const limits = resolvePreContextLimits(input.limits);
  const views = input.dispatches.flatMap((raw) => {
    const view = readDispatch(raw);
    return view && view.mode !== HELPER_MODE ? [view] : [];
  });
  const validationError = views.find((v) => v.validationErrors.length > 0)?.validationErrors[0];
  const provider = cleanValue(failed.provider).slice(0, 40);
  const reason = cleanValue(failed.outcome ?? failed.result ?? 'unknown error');
  const lines: ContextLine[] = [{ text: `Previous provider (${provider}) failed: ${reason}`, priority: 90 }];
  lines.push(
    ...touchedFileLines(views, limits.maxFiles, { created: ['Previous attempt created', 60], updated: ['Previous attempt modified', 50] }),
  );
  if (validationError) {
    lines.push({ text: `Validation error: "${cleanValue(validationError)}"`, priority: 70, quoted: true });
  }
  return fitBlock('PROVIDER SWITCH', lines, `Continue from where ${provider} left off. Avoid recreating existing files.`, limits);
}
