import { getLogger } from '../observability/index.js';
import { AGENT_CLI_SPECS } from './agents/index.js';
import { classifyOutcome } from './classify/classify-outcome.js';
import type { ProcessProviderOptions } from './command-provider.js';
import { combineOutput } from './process/combine-output.js';
import { identifyProcess } from './process/process-identity.js';
import { runProcess } from './process/run-process.js';
import type { AgentCliProviderConfig, Provider, ProviderResult, ProviderRunRequest } from './types.js';

/**
 * Prompts above this many bytes go on stdin where the CLI allows it: Linux refuses a single
 * argument over 128 KiB (E2BIG).
 */
export const MAX_ARGV_PROMPT_BYTES = 100_000;

/**
 * One of the five agent CLIs, run headless as REFERENCE.md says, in its own process group under
 * Baton's wall clock. Structured output is read first, then the known phrases, then the exit code.
 * A missing binary is a config_error naming it.
 */
export function createAgentCliProvider(name: string, config: AgentCliProviderConfig, options: ProcessProviderOptions = {}): Provider {
  const spec = AGENT_CLI_SPECS[config.type];
  const binary = config.binary ?? spec.defaultBinary;
  const now = options.now ?? Date.now;
  return {
    name,
    type: config.type,
    async run(request: ProviderRunRequest): Promise<ProviderResult> {
      const model = request.model ?? config.model;
      const promptOnStdin = spec.stdinPrompt === true && Buffer.byteLength(request.prompt) > MAX_ARGV_PROMPT_BYTES;
      const args = spec.buildArgs({
        prompt: request.prompt,
        promptOnStdin,
        cwd: request.cwd,
        ...(model === undefined ? {} : { model }),
      });
      const run = await runProcess([binary, ...args, ...(config.args ?? [])], {
        cwd: request.cwd,
        env: { ...spec.env, ...config.env, ...request.env },
        input: promptOnStdin ? request.prompt : '',
        timeoutMs: Math.min(request.timeoutMs, config.timeoutMs ?? Number.POSITIVE_INFINITY),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
        ...(options.outputCapBytes === undefined ? {} : { outputCapBytes: options.outputCapBytes }),
        ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
        ...(request.onProcessStart ? { onSpawn: (pid: number) => request.onProcessStart?.(identifyProcess(pid)) } : {}),
      });
      const parsed = spec.parseOutput(run.stdout, run.stderr);
      const outcome = classifyOutcome({
        provider: name,
        stdout: run.stdout,
        stderr: run.stderr,
        parsed,
        timedOut: run.timedOut,
        aborted: run.aborted,
        binary,
        now: now(),
        ...(spec.exitCodes === undefined ? {} : { exitCodes: spec.exitCodes }),
        ...(run.exitCode === undefined ? {} : { exitCode: run.exitCode }),
        ...(run.signal === undefined ? {} : { signal: run.signal }),
        ...(run.spawnError === undefined ? {} : { spawnError: run.spawnError }),
      });
      const result: ProviderResult = { outcome, ...combineOutput(run), durationMs: run.durationMs };
      if (run.exitCode !== undefined) result.exitCode = run.exitCode;
      if (run.signal !== undefined) result.signal = run.signal;
      const ranModel = parsed.model ?? model;
      if (model !== undefined && parsed.model !== undefined && parsed.model !== model) {
        // REFERENCE.md: CLIs fall back to smaller models on their own; a silent downgrade is a signal.
        getLogger().warn({ provider: name, requested: model, ran: parsed.model }, 'agent ran a different model than requested');
      }
      if (ranModel !== undefined) result.model = ranModel;
      if (parsed.usage !== undefined) result.usage = parsed.usage;
      if (parsed.response !== undefined && parsed.response !== '') result.response = parsed.response;
      return result;
    },
  };
}
