import { createHash } from 'node:crypto';
import type { Dispatch, Task } from '../ledger/index.js';
import { retryContextFromLedger, isPreContextEnabled } from '../precontext/index.js';
import { buildTaskPrompt, loadPromptState } from '../prompt/index.js';
import { maskSecretsSync } from '../redact/index.js';
import { ALL_PROVIDERS_OPEN } from './defaults.js';
import { describeTaskFailure, type ProviderFailure } from './describe-failures.js';
import { attemptsPerTask, contextInjections } from './metrics.js';
import { type ProviderChainOptions, runProviderChain } from './provider-chain.js';
import { runHelperAgent } from './run-helper-agent.js';
import { runCriterionChecks } from './validate-attempt.js';

/** Dispatches read back to build a retry context. */
const RETRY_HISTORY = 30;

export interface TaskRunOptions {
  chain: ProviderChainOptions;
  /** Providers for the helper agent (its own chain, same breakers). */
  helperChain: ProviderChainOptions;
  maxAttempts: number;
  /** First attempt number: one past every attempt already in the ledger (resume). */
  firstAttempt: number;
  recentHistoryWindow: number;
  checkTimeoutMs: number;
  /**
   * Runs after validation passes, before the task is marked completed (--concurrency: commit and
   * integrate the task's worktree). A refusal fails the attempt with `error`; `context` leads the
   * next attempt's prompt in place of the retry context, `extraAttempt` adds one attempt, and
   * `final` ends the attempts (the task is blocked with `error`).
   */
  beforeComplete?: (attempt: number, dispatch: Dispatch) => Promise<CompletionGate>;
}

export type CompletionGate =
  | { ok: true }
  | {
      ok: false;
      error: string;
      /** '' to use the retry context. */
      context: string;
      contextType: 'merge_conflict';
      extraAttempt: boolean;
      /** No attempt can help (only the user can resolve it): the task is blocked now. */
      final?: boolean;
    };

/**
 * Runs one claimed task's attempts (seed 000's executeTaskWithRetries): prompt builder, then the
 * RETRY CONTEXT from attempt 2 on, then the provider chain, then validation with the helper
 * agent for unchecked criteria. Pass: the task completes with a result summary. Out of
 * attempts: the task is blocked with the reason. Returns the final task.
 */
export async function runTask(task: Task, options: TaskRunOptions): Promise<Task> {
  const { chain } = options;
  const { ledger, logger } = chain;
  let current = task;
  let lastError = 'no attempt ran';
  // Per attempt that failed before validation: why each provider did not finish it.
  const chainFailures: ProviderFailure[][] = [];
  let lastWasChain = false;
  let attempt = options.firstAttempt;
  let maxAttempts = options.maxAttempts;
  let carried: Extract<CompletionGate, { ok: false }> | undefined;
  chain.onEvent({ type: 'task-start', taskId: task.id, firstAttempt: attempt, maxAttempts });
  for (; attempt <= maxAttempts; attempt++) {
    if (chain.signal?.aborted) break;
    chain.onEvent({ type: 'attempt-start', taskId: task.id, attempt });
    const state = await loadPromptState(ledger, { window: options.recentHistoryWindow });
    const base = buildTaskPrompt(current, state, { workingDirectory: chain.cwd });
    if (logger.isLevelEnabled('info')) {
      logger.info(
        { event: 'prompt.original', taskId: task.id, attempt, digest: digest(base), prompt: maskSecretsSync(base).text },
        'task prompt',
      );
    }
    let context = '';
    let contextType: Dispatch['contextType'] = 'retry';
    if (carried?.context) {
      // A refused completion (merge conflict) explains itself better than the retry context.
      context = isPreContextEnabled(chain.preContext, 'retry', current.options) ? carried.context : '';
      contextType = carried.contextType;
      carried = undefined;
      if (context) {
        contextInjections().inc({ type: contextType });
        chain.onEvent({ type: 'context', taskId: task.id, attempt, kind: contextType, text: context });
        logger.info(
          { event: 'prompt.contextual', taskId: task.id, attempt, type: contextType, context },
          'merge conflict context injected',
        );
      }
    } else if (attempt > 1 && isPreContextEnabled(chain.preContext, 'retry', current.options)) {
      carried = undefined;
      const history = await ledger.lastDispatches(task.id, RETRY_HISTORY);
      context = retryContextFromLedger({ attempt, dispatches: history, limits: chain.preContext.limits, logger });
      if (context) {
        contextInjections().inc({ type: 'retry' });
        chain.onEvent({ type: 'context', taskId: task.id, attempt, kind: 'retry', text: context });
        logger.info({ event: 'prompt.contextual', taskId: task.id, attempt, type: 'retry', context }, 'retry context injected');
      }
    }
    const run = await runProviderChain(
      {
        taskId: task.id,
        attempt,
        prompt: context + base,
        injectedContext: context,
        contextType: context ? contextType : undefined,
        mode: current.mode,
        taskOptions: current.options,
        newAttempt: true,
      },
      chain,
    );
    // The ledger allocated the attempt's number; it is the expected one unless someone else (an
    // MCP client) started an attempt of this task meanwhile.
    if (run.dispatch) attempt = run.dispatch.attempt;
    if (!run.ok && !run.dispatch) {
      if (chain.signal?.aborted) break;
      // No agent ran (every breaker open past --max-wait): not an attempt, and none is spent on it.
      return blockWithoutAgent(task.id, attempt, run, chain);
    }
    if (!run.ok) {
      lastError = run.failure;
      chainFailures.push(run.failures);
      lastWasChain = true;
      continue;
    }
    const verdict = await validate(current, attempt, run.dispatch, run.result.response ?? run.result.output, options);
    current = verdict.task;
    if (verdict.errors.length === 0 && options.beforeComplete) {
      const gate = await options.beforeComplete(attempt, run.dispatch);
      if (!gate.ok) {
        await chain.ledger.updateDispatch(run.dispatch.id, { status: 'failed', validationErrors: [gate.error] });
        lastError = gate.error;
        lastWasChain = false;
        carried = gate;
        if (gate.extraAttempt) maxAttempts += 1;
        if (gate.final) maxAttempts = attempt;
        continue;
      }
    }
    if (verdict.errors.length === 0) {
      attemptsPerTask().observe({ status: 'completed' }, attempt);
      const summary = run.dispatch.result ?? `All ${current.acceptanceCriteria.length} acceptance criteria passed`;
      const done = await ledger.updateTask(task.id, { status: 'completed', resultSummary: summary });
      chain.onEvent({ type: 'task-end', taskId: task.id, status: 'completed' });
      return done;
    }
    lastError = verdict.errors[0] ?? 'validation failed';
    lastWasChain = false;
  }
  if (chain.signal?.aborted) {
    // Stopped by the operator: not a verdict on the task. It stays in_progress and resumes later.
    chain.onEvent({ type: 'task-end', taskId: task.id, status: 'in_progress', reason: 'run stopped' });
    return current;
  }
  const used = Math.max(0, Math.min(attempt, maxAttempts + 1) - 1);
  attemptsPerTask().observe({ status: 'blocked' }, used);
  const why = lastWasChain ? describeTaskFailure(chainFailures) : lastError;
  const reason = why.startsWith(ALL_PROVIDERS_OPEN) ? why : `Failed after ${used} attempt${used === 1 ? '' : 's'}: ${why}`;
  const blocked = await ledger.updateTask(task.id, { status: 'blocked', blockReason: reason.slice(0, 500) });
  chain.onEvent({ type: 'task-end', taskId: task.id, status: 'blocked', reason });
  return blocked;
}

async function validate(
  task: Task,
  attempt: number,
  dispatch: Dispatch,
  response: string,
  options: TaskRunOptions,
): Promise<{ errors: string[]; task: Task }> {
  const { chain } = options;
  const failures = await runCriterionChecks(task.acceptanceCriteria, chain.workspace, options.checkTimeoutMs);
  if (failures.length === 0) {
    chain.onEvent({ type: 'validation', taskId: task.id, attempt, passed: true, errors: [] });
    return { errors: [], task };
  }
  await markFailed(
    dispatch,
    failures.map((f) => f.error),
    chain,
  );
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
      // The helper's commands become the criteria's checks, so later attempts run them directly.
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

/**
 * Blocks a task when no provider could run its next attempt. That attempt never started, so the
 * reason counts only the attempts whose agents ran, then says what kept each provider out (seed
 * 000's "All providers circuit-broken", with each breaker's reopening time).
 */
async function blockWithoutAgent(
  taskId: string,
  attempt: number,
  run: { failure: string; failures: readonly ProviderFailure[] },
  chain: ProviderChainOptions,
): Promise<Task> {
  const ran = attempt - 1;
  // Waiting helps only a shared breaker that reopens; a local config error needs a fix.
  const waitable = run.failures.some((f) => f.kind === 'breaker_open' && !f.local && f.openUntil !== undefined);
  const wait = waitable ? `; --max-wait ${chain.maxWaitMs} ms` : '';
  const reason = `No agent could run attempt ${attempt} (${ran} attempt${ran === 1 ? '' : 's'} ran${wait}): ${run.failure}`;
  attemptsPerTask().observe({ status: 'blocked' }, ran);
  const blocked = await chain.ledger.updateTask(taskId, { status: 'blocked', blockReason: reason.slice(0, 500) });
  chain.onEvent({ type: 'task-end', taskId, status: 'blocked', reason });
  return blocked;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
