import { createHash } from 'node:crypto';
import type { AgentProcess, Breaker, Dispatch } from '../ledger/index.js';
import type { Logger } from '../observability/index.js';
import { buildProviderSwitchContext, isPreContextEnabled, type PreContextSettings } from '../precontext/index.js';
import type { Provider, ProviderResult } from '../providers/index.js';
import { maskSecretsSync } from '../redact/index.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { describeAttemptFailure, type ProviderFailure } from './describe-failures.js';
import { contextInjections, dispatchesTotal } from './metrics.js';
import type { SupervisorDeps, WorkspaceOps } from './types.js';

/** Outcomes after which the chain moves on to the next provider (REFERENCE.md). */
const NEXT_PROVIDER = new Set([
  'rate_limited',
  'quota_exhausted',
  'auth_failed',
  'overloaded',
  'timeout',
  'killed_by_signal',
  'context_window',
  'config_error',
  'interrupted',
]);
/** Dispatches read back to build a switch context. */
const SWITCH_HISTORY = 6;
/** Rounds of "wait for the earliest reset, then try again" before giving up. */
const MAX_WAIT_ROUNDS = 5;

export interface ProviderChainOptions extends SupervisorDeps {
  /** Providers in priority order. */
  providers: readonly Provider[];
  breaker: CircuitBreaker;
  workspace: WorkspaceOps;
  cwd: string;
  agentTimeoutMs: number;
  preContext: PreContextSettings;
  /** Wait at most this long for the earliest breaker reset when all are open. */
  maxWaitMs: number;
  logger: Logger;
  signal?: AbortSignal;
}

export interface ChainRequest {
  taskId: string;
  attempt: number;
  /** The prompt, with any retry/helper pre-context already at its start. */
  prompt: string;
  /** The pre-context already in `prompt`, recorded on each dispatch. */
  injectedContext?: string;
  contextType?: Dispatch['contextType'];
  /** 'helper' for verifier runs; the task's agent mode otherwise. */
  mode?: string;
  taskOptions?: Readonly<Record<string, unknown>>;
  /**
   * The first try starts a new attempt: the ledger allocates its number atomically
   * (appendNextAttempt) and later tries of this call reuse it. `attempt` is the expected number.
   */
  newAttempt?: boolean;
}

export type ChainResult =
  | { ok: true; dispatch: Dispatch; result: ProviderResult }
  | { ok: false; failure: string; failures: ProviderFailure[]; dispatch?: Dispatch; result?: ProviderResult };

/**
 * Seed 000's CLIAdapter.execute: tries providers in priority order, skipping open breakers; every
 * try is a dispatch (appended as running before the run, completed after with the outcome, the
 * measured files, duration, model, injected context and prompt digest). After a failed try the
 * next provider's prompt starts with the PROVIDER SWITCH CONTEXT. When every breaker is open it
 * waits for the earliest reset if that is within maxWaitMs, else fails saying what stopped each
 * provider ("All providers circuit-broken: ..." only when every breaker is open). Returns ok
 * when a provider answered (ok or agent_error).
 */
export async function runProviderChain(first: ChainRequest, options: ProviderChainOptions): Promise<ChainResult> {
  const { ledger, logger } = options;
  let request = first;
  let lastTry: { dispatch: Dispatch; result: ProviderResult } | undefined;
  // The latest reason each provider did not finish, in priority order.
  const failures = new Map<string, ProviderFailure>();
  for (let round = 0; round <= MAX_WAIT_ROUNDS; round++) {
    let earliest: number | undefined;
    let ranThisRound = false;
    for (const provider of options.providers) {
      if (options.signal?.aborted) return { ok: false, failure: 'aborted', failures: [...failures.values()], ...lastTry };
      const decision = await options.breaker.acquire(provider.name);
      if (!decision.allowed) {
        options.onEvent({ type: 'breaker-skip', taskId: request.taskId, provider: provider.name, until: decision.until });
        // A breaker open on this host only stands for a config error (a missing binary, a refused
        // command line): its cool-down passing does not fix it, so it is not waited for.
        if (decision.until !== undefined && !decision.local) earliest = Math.min(earliest ?? decision.until, decision.until);
        failures.set(provider.name, {
          provider: provider.name,
          kind: 'breaker_open',
          reason: decision.reason ?? 'no reason recorded',
          ...(decision.until === undefined ? {} : { openUntil: decision.until }),
          ...(decision.local ? { local: true } : {}),
        });
        continue;
      }
      let prompt = request.prompt;
      let injected = request.injectedContext ?? '';
      let contextType = request.contextType;
      if (lastTry && isPreContextEnabled(options.preContext, 'circuit_breaker', request.taskOptions)) {
        const history = await ledger.lastDispatches(request.taskId, SWITCH_HISTORY);
        const block = buildProviderSwitchContext({ dispatches: history, limits: options.preContext.limits, logger });
        if (block) {
          prompt = block + prompt;
          injected = block + injected;
          contextType = 'circuit_breaker';
          const at = { taskId: request.taskId, attempt: request.attempt, provider: provider.name };
          announceContext(at, block, contextType, options, 'provider switch context injected');
        }
      }
      const tried = await runOne(provider, request, { prompt, injected, contextType }, options);
      lastTry = { dispatch: tried.dispatch, result: tried.result };
      if (request.newAttempt) request = { ...request, attempt: tried.dispatch.attempt, newAttempt: false };
      ranThisRound = true;
      const outcome = lastTry.result.outcome;
      if (!NEXT_PROVIDER.has(outcome.kind)) return { ok: true, ...lastTry };
      failures.delete(provider.name);
      failures.set(provider.name, {
        provider: provider.name,
        kind: outcome.kind,
        reason: outcome.reason ?? outcome.kind,
        ...(tried.breaker?.state === 'open' && tried.breaker.until !== undefined ? { openUntil: tried.breaker.until } : {}),
      });
    }
    // Breakers this round just opened are read (and waited for) on the next round.
    if (earliest === undefined && ranThisRound && options.maxWaitMs > 0 && round < MAX_WAIT_ROUNDS) continue;
    const now = options.now();
    if (earliest === undefined || earliest - now > options.maxWaitMs || round === MAX_WAIT_ROUNDS) break;
    options.onEvent({ type: 'waiting', taskId: request.taskId, untilMs: earliest });
    await options.sleep(Math.max(0, earliest - now), options.signal);
  }
  const list = [...failures.values()];
  return { ok: false, failure: describeAttemptFailure(list), failures: list, ...lastTry };
}

/** Counts, reports and logs a pre-context block injected into an attempt's prompt. */
export function announceContext(
  at: { taskId: string; attempt: number; provider?: string },
  context: string,
  type: NonNullable<Dispatch['contextType']>,
  chain: Pick<ProviderChainOptions, 'onEvent' | 'logger'>,
  message: string,
): void {
  contextInjections().inc({ type });
  chain.onEvent({ type: 'context', taskId: at.taskId, attempt: at.attempt, kind: type, text: context });
  chain.logger.info({ event: 'prompt.contextual', ...at, type, context }, message);
}

async function runOne(
  provider: Provider,
  request: ChainRequest,
  prompt: { prompt: string; injected: string; contextType: Dispatch['contextType'] },
  options: ProviderChainOptions,
): Promise<{ dispatch: Dispatch; result: ProviderResult; breaker: Breaker | undefined }> {
  const { ledger } = options;
  const before = await options.workspace.snapshot();
  const fields = {
    taskId: request.taskId,
    provider: provider.name,
    mode: request.mode,
    status: 'running' as const,
    injectedContext: prompt.injected || undefined,
    contextType: prompt.injected ? prompt.contextType : undefined,
    promptDigest: promptDigest(prompt.prompt),
    // The whole prompt, masked, so `baton ui` can show exactly what the agent was told.
    promptPreview: maskSecretsSync(prompt.prompt).text,
    claimedBy: options.owner,
    startedAt: options.now(),
  };
  const started = request.newAttempt
    ? await ledger.appendNextAttempt(fields)
    : await ledger.appendDispatch({ ...fields, attempt: request.attempt });
  // The allocated number when this try started the attempt.
  const tried = { ...request, attempt: started.attempt };
  options.onEvent({ type: 'dispatch-start', taskId: tried.taskId, attempt: tried.attempt, provider: provider.name, mode: tried.mode });
  // The group is on record before Baton waits on it: a resumed run can end it if this one dies.
  let recorded: Promise<unknown> = Promise.resolve();
  const onProcessStart = (agentProcess: AgentProcess): void => {
    recorded = ledger.updateDispatch(started.id, { agentProcess }).catch((error: unknown) => {
      options.logger.warn({ err: error, dispatch: started.id }, 'could not record the agent process group');
    });
  };
  const result = await runSafely(provider, tried, prompt.prompt, options, onProcessStart);
  await recorded;
  const changes = await options.workspace.diff(before, await options.workspace.snapshot());
  const finishedAt = options.now();
  const kind = result.outcome.kind;
  // The dispatch's record and the provider's breaker are separate keys: written at once.
  const recording = ledger.updateDispatch(started.id, {
    status: kind === 'ok' ? 'completed' : 'failed',
    outcome: kind,
    exitCode: result.exitCode,
    signal: result.signal,
    model: result.model,
    filesCreated: changes.created,
    filesUpdated: changes.updated,
    filesDeleted: changes.deleted,
    result: summarize(result),
    resetAt: result.outcome.resetAt,
    tokensIn: result.usage?.input,
    tokensOut: result.usage?.output,
    finishedAt,
    durationMs: result.durationMs,
  });
  const [dispatch, breaker] = await Promise.all([recording, options.breaker.record(provider.name, result.outcome)]);
  dispatchesTotal().inc({ provider: provider.name, outcome: kind });
  options.onEvent({
    type: 'dispatch-end',
    taskId: tried.taskId,
    attempt: tried.attempt,
    provider: provider.name,
    outcome: kind,
    mode: tried.mode,
    ...(result.signal && kind === 'killed_by_signal' ? { signal: result.signal } : {}),
  });
  return { dispatch, result, breaker };
}

/**
 * A provider that throws (a bug, not an outcome) ran no agent: its try is a config_error naming
 * the error, so the chain moves on and the attempt fails; an attempt whose agent never ran is
 * never validated, so it can never complete the task.
 */
async function runSafely(
  provider: Provider,
  request: ChainRequest,
  prompt: string,
  options: ProviderChainOptions,
  onProcessStart: (agentProcess: AgentProcess) => void,
): Promise<ProviderResult> {
  const started = options.now();
  try {
    return await provider.run({
      prompt,
      cwd: options.cwd,
      timeoutMs: options.agentTimeoutMs,
      taskId: request.taskId,
      attempt: request.attempt,
      onProcessStart,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    options.logger.error({ provider: provider.name, err: error }, 'provider threw');
    const outcome = { kind: 'config_error' as const, reason: `${provider.name} could not run: ${reason}` };
    return { outcome, output: reason, outputTruncated: false, durationMs: options.now() - started };
  }
}

/** The 16-hex-digit digest of a prompt, on its dispatch and in its log line. */
export function promptDigest(prompt: string): string {
  return createHash('sha256').update(prompt).digest('hex').slice(0, 16);
}

/** One short, masked line for the dispatch's result field. */
function summarize(result: ProviderResult): string | undefined {
  const text = result.outcome.kind === 'ok' ? (result.response ?? '') : (result.outcome.reason ?? result.response ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return maskSecretsSync(flat.length > 300 ? `${flat.slice(0, 299)}…` : flat).text;
}
