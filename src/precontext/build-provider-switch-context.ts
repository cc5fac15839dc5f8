import { getLogger } from '../observability/index.js';
import { resolvePreContextLimits } from './defaults.js';
import { type ContextLine, cleanValue, END_LINE, fitContext, shortPath } from './fit-context.js';
import { readDispatch } from './summarize-attempts.js';
import type { PreContextBuildOptions } from './types.js';

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
  const logger = input.logger ?? getLogger();
  const failed = readDispatch(input.dispatches[0]);
  if (!failed) {
    logger.warn({ kind: 'circuit_breaker' }, 'pre-context skipped: no readable failed dispatch');
    return '';
  }
  const limits = resolvePreContextLimits(input.limits);
  const created: string[] = [];
  const updated: string[] = [];
  let validationError: string | undefined;
  for (const raw of input.dispatches) {
    const view = readDispatch(raw);
    if (!view || view.mode === 'helper') continue;
    for (const f of view.filesCreated) if (!created.includes(f)) created.push(f);
    for (const f of view.filesUpdated) if (!updated.includes(f) && !created.includes(f)) updated.push(f);
    validationError ??= view.validationErrors[0];
  }
  const provider = cleanValue(failed.provider).slice(0, 40);
  const reason = cleanValue(failed.outcome ?? failed.result ?? 'unknown error');
  const lines: ContextLine[] = [
    { text: '--- PROVIDER SWITCH CONTEXT ---', fixed: true, priority: 100 },
    { text: `Previous provider (${provider}) failed: ${reason}`, priority: 90 },
  ];
  const files = (list: string[]) => cleanValue(list.slice(0, limits.maxFiles).map(shortPath).join(', '));
  if (created.length > 0 && limits.maxFiles > 0) {
    lines.push({ text: `Previous attempt created: ${files(created)}`, priority: 60, list: true });
  }
  if (updated.length > 0 && limits.maxFiles > 0) {
    lines.push({ text: `Previous attempt modified: ${files(updated)}`, priority: 50, list: true });
  }
  if (validationError) {
    lines.push({ text: `Validation error: "${cleanValue(validationError)}"`, priority: 70, quoted: true });
  }
  lines.push(
    { text: `Continue from where ${provider} left off. Avoid recreating existing files.`, fixed: true, priority: 100 },
    { text: END_LINE, fixed: true, priority: 100 },
  );
  return fitContext(lines, limits);
}
