import type { Dispatch, Task } from '../ledger/index.js';
import type { ProviderChainOptions } from './provider-chain.js';
import { runHelperAgent } from './run-helper-agent.js';
import { runCriterionChecks } from './validate-attempt.js';

/** What validating an attempt came to: its errors (none: passed) and the task as it now is. */
export interface AttemptVerdict {
  errors: string[];
  /** With the checks the helper agent wrote for criteria that had none. */
  task: Task;
}

/**
 * Validates an attempt whose agent answered: every criterion's check; after a failure, criteria
 * without a check go to the helper agent, whose commands become those criteria's checks (later
 * attempts run them directly). A failure is recorded on the attempt's dispatch.
 */
export async function validateTaskAttempt(
  task: Task,
  attempt: number,
  dispatch: Dispatch,
  response: string,
  options: { chain: ProviderChainOptions; helperChain: ProviderChainOptions; checkTimeoutMs: number },
): Promise<AttemptVerdict> {
  const { chain } = options;
  const failures = await runCriterionChecks(task.acceptanceCriteria, chain.workspace, options.checkTimeoutMs);
  if (failures.length === 0) {
    chain.onEvent({ type: 'validation', taskId: task.id, attempt, passed: true, errors: [] });
    return { errors: [], task };
  }
  const checkErrors = failures.map((f) => f.error);
  await markFailed(dispatch, checkErrors, chain);
  let current = task;
  const unchecked = task.acceptanceCriteria.flatMap((c, i) => (c.check ? [] : [i]));
  if (unchecked.length > 0 && options.helperChain.providers.length > 0) {
    const helper = await runHelperAgent(
      {
        task,
        attempt,
        unchecked,
        agentResponse: response,
        codeFiles: [...dispatch.filesCreated, ...dispatch.filesUpdated],
        checkTimeoutMs: options.checkTimeoutMs,
      },
      options.helperChain,
    );
    failures.push(...helper.failures);
    if (helper.written.length > 0) {
      const criteria = task.acceptanceCriteria.map((c, i) => {
        const written = helper.written.find((w) => w.index === i);
        return written ? { ...c, check: written.command } : c;
      });
      current = await chain.ledger.updateTask(task.id, { acceptanceCriteria: criteria });
    }
  }
  failures.sort((a, b) => a.index - b.index);
  const errors = failures.map((f) => f.error);
  await markFailed(dispatch, errors, chain);
  chain.onEvent({ type: 'validation', taskId: task.id, attempt, passed: false, errors });
  return { errors, task: current };
}

async function markFailed(dispatch: Dispatch, errors: string[], chain: ProviderChainOptions): Promise<void> {
  // validation_failed is a task outcome recorded on the try; the breaker already saw the provider's.
  await chain.ledger.updateDispatch(dispatch.id, { status: 'failed', outcome: 'validation_failed', validationErrors: errors });
}
