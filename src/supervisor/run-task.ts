import type { Dispatch, Task } from '../ledger/index.js';
import { buildRetryContext, isPreContextEnabled } from '../precontext/index.js';
import { buildTaskPrompt, loadPromptState } from '../prompt/index.js';
import { maskSecretsSync } from '../redact/index.js';
import type { CompletionGate } from './completion-gate.js';
import { blockAfterAttempts, blockWithoutAgent } from './block-task.js';
import { describeTaskFailure, type ProviderFailure } from './describe-failures.js';
import { attemptsPerTask } from './metrics.js';
import { announceContext, type ChainResult, type ProviderChainOptions, promptDigest, runProviderChain } from './provider-chain.js';
import { sessionsWorkspaceOf } from './sessions-workspace.js';
import { validateTaskAttempt } from './validate-task-attempt.js';

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
  /** Runs before each try's prompt is built (runPlan's `refreshSessions`: imports new agent CLI sessions). */
  refreshSessions?: () => Promise<void>;
}

/** Where a task's attempts stand, carried from one attempt to the next. */
interface AttemptLoop {
  current: Task;
  attempt: number;
  maxAttempts: number;
  lastError: string;
  /** Per attempt that failed before validation: why each provider did not finish it. */
  chainFailures: ProviderFailure[][];
  lastWasChain: boolean;
  carried?: Extract<CompletionGate, { ok: false }>;
}

/**
 * Runs one claimed task's attempts (seed 000's executeTaskWithRetries): prompt builder, then the
 * RETRY CONTEXT from attempt 2 on, then the provider chain, then validation with the helper
 * agent for unchecked criteria. Pass: the task completes with a result summary. Out of
 * attempts: the task is blocked with the reason. Returns the final task.
 */
export async function runTask(task: Task, options: TaskRunOptions): Promise<Task> {
  const { chain } = options;
  const loop: AttemptLoop = {
    current: task,
    attempt: options.firstAttempt,
    maxAttempts: options.maxAttempts,
    lastError: 'no attempt ran',
    chainFailures: [],
    lastWasChain: false,
  };
  chain.onEvent({ type: 'task-start', taskId: task.id, firstAttempt: loop.attempt, maxAttempts: loop.maxAttempts });
  for (; loop.attempt <= loop.maxAttempts; loop.attempt++) {
    if (chain.signal?.aborted) break;
    const ended = await runAttempt(loop, options);
    if (ended) return ended;
  }
  if (chain.signal?.aborted) {
    // Stopped by the operator: not a verdict on the task. It stays in_progress and resumes later.
    chain.onEvent({ type: 'task-end', taskId: task.id, status: 'in_progress', reason: 'run stopped' });
    return loop.current;
  }
  const used = Math.max(0, Math.min(loop.attempt, loop.maxAttempts + 1) - 1);
  return blockAfterAttempts(task.id, used, loop.lastWasChain ? describeTaskFailure(loop.chainFailures) : loop.lastError, chain);
}

/** One attempt: its prompt, the provider chain, then its verdict. The final task when the task ended. */
async function runAttempt(loop: AttemptLoop, options: TaskRunOptions): Promise<Task | undefined> {
  const { chain } = options;
  const task = loop.current;
  chain.onEvent({ type: 'attempt-start', taskId: task.id, attempt: loop.attempt });
  const base = await basePrompt(task, loop.attempt, options);
  const { context, contextType } = await attemptContext(task, loop.attempt, loop.carried, chain);
  loop.carried = undefined;
  const run = await runProviderChain(
    {
      taskId: task.id,
      attempt: loop.attempt,
      prompt: context + base,
      injectedContext: context,
      contextType: context ? contextType : undefined,
      mode: task.mode,
      taskOptions: task.options,
      newAttempt: true,
    },
    chain,
  );
  // The ledger allocated the attempt's number; it is the expected one unless someone else (an
  // MCP client) started an attempt of this task meanwhile.
  if (run.dispatch) loop.attempt = run.dispatch.attempt;
  if (!run.ok && !run.dispatch) {
    // Aborted: the loop ends. Else no agent ran (every breaker open past --max-wait): not an
    // attempt, and none is spent on it.
    return chain.signal?.aborted ? undefined : blockWithoutAgent(task.id, loop.attempt, run, chain);
  }
  if (!run.ok) {
    loop.lastError = run.failure;
    loop.chainFailures.push(run.failures);
    loop.lastWasChain = true;
    return undefined;
  }
  return settleAttempt(loop, run, options);
}

/**
 * The task prompt (seed 001, with this workspace's agent CLI sessions as they are now: refreshed
 * first, so a session another CLI ran since the last try is in it), logged masked when info logs are on.
 */
async function basePrompt(task: Task, attempt: number, options: TaskRunOptions): Promise<string> {
  const { chain } = options;
  await options.refreshSessions?.().catch((error: unknown) => chain.logger.warn({ err: error, taskId: task.id }, 'session import failed'));
  const workspace = await sessionsWorkspaceOf(chain.cwd);
  const state = await loadPromptState(chain.ledger, { window: options.recentHistoryWindow, workspace });
  const base = buildTaskPrompt(task, state, { workingDirectory: chain.cwd });
  if (chain.logger.isLevelEnabled('info')) {
    const fields = { event: 'prompt.original', taskId: task.id, attempt, digest: promptDigest(base), prompt: maskSecretsSync(base).text };
    chain.logger.info(fields, 'task prompt');
  }
  return base;
}

/**
 * The block an attempt's prompt starts with ('' for none), and its seam: what a refused
 * completion carried (a MERGE CONFLICT CONTEXT explains itself better than the retry context),
 * else from attempt 2 on the RETRY CONTEXT read from the task's dispatches; either only when the
 * `retry` seam is enabled. Counts and reports what it injects.
 */
async function attemptContext(
  task: Task,
  attempt: number,
  carried: Extract<CompletionGate, { ok: false }> | undefined,
  chain: ProviderChainOptions,
): Promise<{ context: string; contextType: Dispatch['contextType'] }> {
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

/**
 * An attempt whose agent answered: validation, then the completion gate (commit and integrate,
 * with a worktree). Pass: the task is completed. Otherwise the next attempt is told why.
 */
async function settleAttempt(
  loop: AttemptLoop,
  run: Extract<ChainResult, { ok: true }>,
  options: TaskRunOptions,
): Promise<Task | undefined> {
  const { chain } = options;
  const task = loop.current;
  const verdict = await validateTaskAttempt(task, loop.attempt, run.dispatch, run.result.response ?? run.result.output, options);
  loop.current = verdict.task;
  loop.lastWasChain = false;
  if (verdict.errors.length > 0) {
    loop.lastError = verdict.errors[0] ?? 'validation failed';
    return undefined;
  }
  const gate = options.beforeComplete ? await options.beforeComplete(loop.attempt, run.dispatch) : ({ ok: true } as const);
  if (!gate.ok) {
    await chain.ledger.updateDispatch(run.dispatch.id, { status: 'failed', validationErrors: [gate.error] });
    loop.lastError = gate.error;
    loop.carried = gate;
    if (gate.extraAttempt) loop.maxAttempts += 1;
    if (gate.final) loop.maxAttempts = loop.attempt;
    return undefined;
  }
  attemptsPerTask().observe({ status: 'completed' }, loop.attempt);
  const summary = run.dispatch.result ?? `All ${loop.current.acceptanceCriteria.length} acceptance criteria passed`;
  const done = await chain.ledger.updateTask(task.id, { status: 'completed', resultSummary: summary });
  chain.onEvent({ type: 'task-end', taskId: task.id, status: 'completed' });
  return done;
}
