import { definedFields } from '../../util/index.js';
import type { ParsedAgentOutput } from '../agents/types.js';
import type { BaseProviderConfig, Outcome, ProcessProviderOptions, ProviderResult, ProviderRunRequest } from '../types.js';
import { identifyProcess } from './process-identity.js';
import { runProcess, type RunProcessOptions, type RunProcessResult } from './run-process.js';

/**
 * An agent's environment: `env`, then BATON_SUPERVISED=1 (the agent's own Baton hooks, if
 * installed, neither brief nor record this try again) and BATON_TASK_ID / BATON_ATTEMPT when known.
 */
export function agentEnv(env: Record<string, string | undefined>, request: ProviderRunRequest): Record<string, string | undefined> {
  return { ...env, BATON_SUPERVISED: '1', ...definedFields({ BATON_TASK_ID: request.taskId, BATON_ATTEMPT: request.attempt?.toString() }) };
}

/**
 * Runs an agent process (a CLI or a command provider's program) for one request, within the lower
 * of the request's and the config's time limit, its process group reported as soon as it started.
 */
export function runAgentProcess(
  argv: readonly string[],
  request: ProviderRunRequest,
  config: BaseProviderConfig,
  options: ProcessProviderOptions,
  run: { env: Record<string, string | undefined>; input: string; stallLine?: RunProcessOptions['stallLine'] },
): Promise<RunProcessResult> {
  return runProcess(argv, {
    cwd: request.cwd,
    env: run.env,
    input: run.input,
    timeoutMs: Math.min(request.timeoutMs, config.timeoutMs ?? Number.POSITIVE_INFINITY),
    signal: request.signal,
    outputCapBytes: options.outputCapBytes,
    killGraceMs: options.killGraceMs,
    stallLine: run.stallLine,
    ...(request.onProcessStart ? { onSpawn: (pid: number) => request.onProcessStart?.(identifyProcess(pid)) } : {}),
  });
}

/** The ProviderResult of an agent process: its outcome, output (stdout then labelled stderr) and what it reported. */
export function agentResult(run: RunProcessResult, outcome: Outcome, parsed: ParsedAgentOutput, model: string | undefined): ProviderResult {
  const stderr = run.stderr.trim() === '' ? '' : `${run.stdout === '' || run.stdout.endsWith('\n') ? '' : '\n'}[stderr]\n${run.stderr}`;
  return {
    outcome,
    output: run.stdout + stderr,
    outputTruncated: run.stdoutTruncated || run.stderrTruncated,
    durationMs: run.durationMs,
    ...definedFields({ exitCode: run.exitCode, signal: run.signal, model, usage: parsed.usage, response: parsed.response || undefined }),
  };
}
