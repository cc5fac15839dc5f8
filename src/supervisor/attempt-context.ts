import type { Dispatch, Task } from '../ledger/index.js';
import { isPreContextEnabled, buildRetryContext } from '../precontext/index.js';
import { announceContext, type ProviderChainOptions } from './provider-chain.js';
import type { CompletionGate } from './completion-gate.js';

/** Dispatches read back to build a retry context. */
const RETRY_HISTORY = 30;

/** The pre-context that leads an attempt's prompt ('' for none), and its seam. */
export interface AttemptContext {
  context: string;
  contextType: Dispatch['contextType'];
}

/**
 * The block an attempt's prompt starts with: what a refused completion carried (a MERGE
 * CONFLICT CONTEXT explains itself better than the retry context), else from attempt 2 on the
 * RETRY CONTEXT read from the task's dispatches; either only when the `retry` seam is enabled.
 * Counts and reports what it injects.
 */
export async function attemptContext(
  task: Task,
  attempt: number,
  carried: Extract<CompletionGate, { ok: false }> | undefined,
  chain: ProviderChainOptions,
): Promise<AttemptContext> {
  const enabled = isPreContextEnabled(chain.preContext, 'retry', task.options);
  if (carried?.context) {
    const made = { context: enabled ? carried.context : '', contextType: carried.contextType };
    if (made.context)
      announceContext({ taskId: task.id, attempt }, made.context, made.contextType ?? 'retry', chain, 'merge conflict context injected');
    return made;
  }
  if (attempt <= 1 || !enabled) return { context: '', contextType: 'retry' };
  const history = await chain.ledger.lastDispatches(task.id, RETRY_HISTORY);
  const context = buildRetryContext({ attempt, dispatches: history, limits: chain.preContext.limits, logger: chain.logger });
  if (context) announceContext({ taskId: task.id, attempt }, context, 'retry', chain, 'retry context injected');
  return { context, contextType: 'retry' };
}
