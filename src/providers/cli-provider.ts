import { getLogger } from '../observability/index.js';
import { AGENT_CLI_SPECS } from './agents/index.js';
import type { AgentCliSpec, AgentRunContext, ParsedAgentOutput } from './agents/types.js';
import { classifyOutcome } from './classify/classify-outcome.js';
import { agentEnv, agentResult, runAgentProcess } from './process/agent-run.js';
import type { RunProcessResult } from './process/run-process.js';
import type {
  AgentCliProviderConfig,
  AgentPermissions,
  ProcessProviderOptions,
  Outcome,
  Provider,
  ProviderResult,
  ProviderRunRequest,
} from './types.js';
import { agentCliConfigSchema, checkProcessOptions, checkProviderConfig } from './provider-config-schema.js';

/**
 * Prompts above this many bytes go on stdin where the CLI allows it: Linux refuses a single
 * argument over 128 KiB (E2BIG).
 */
export const MAX_ARGV_PROMPT_BYTES = 100_000;

/** What an agent CLI may do without asking unless its provider says otherwise. */
export const DEFAULT_AGENT_PERMISSIONS: AgentPermissions = 'workspace';

/**
 * One of the five agent CLIs, run headless as REFERENCE.md says, in its own process group under
 * Baton's wall clock. The prompt reaches each CLI as a prompt, never as options (every seam block
 * starts with `---`). Structured output is read first, then the known phrases (never in the echo
 * of Baton's own prompt), then the exit code. A missing binary is a config_error naming it.
 */
export function createAgentCliProvider(name: string, config: AgentCliProviderConfig, options: ProcessProviderOptions = {}): Provider {
  checkProviderConfig('createAgentCliProvider', name, config, agentCliConfigSchema);
  checkProcessOptions('createAgentCliProvider', options);
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
        permissions: config.permissions ?? DEFAULT_AGENT_PERMISSIONS,
        extraArgs: config.args ?? [],
        model,
      });
      const env = agentEnv({ ...spec.env, ...config.env, ...request.env }, request);
      const run = await runAgentProcess([binary, ...args], request, config, options, {
        env,
        input: promptOnStdin ? request.prompt : '',
        ...(spec.stall ? { stallLine: { pattern: spec.stall.pattern, count: spec.stall.count } } : {}),
      });
      const context: AgentRunContext = { env: { ...process.env, ...env }, args, requested: model };
      const parsed = spec.parseOutput(run.stdout, run.stderr);
      const outcome = await decide(spec, run, parsed, context, { provider: name, binary, prompt: request.prompt, now: now() });
      return agentResult(run, outcome, parsed, await modelThatRan(spec, run, parsed, context, name));
    },
  };
}

/** An outcome's reason that says the CLI could not reach its model endpoint. */
const UNREACHABLE =
  /could not connect|unable to connect|connection ?refused|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|fetch failed|error sending request/i;

/**
 * The run's outcome: a stall Baton stopped (codex's unreachable endpoint), else classifyOutcome;
 * a failure to connect names the endpoint the CLI was pointed at.
 */
async function decide(
  spec: AgentCliSpec,
  run: RunProcessResult,
  parsed: ParsedAgentOutput,
  context: AgentRunContext,
  about: { provider: string; binary: string; prompt: string; now: number },
): Promise<Outcome> {
  if (run.stalled !== undefined && spec.stall !== undefined && !run.timedOut && !run.aborted) {
    return { kind: 'overloaded', reason: `${about.provider}: ${await spec.stall.describe(run.stalled, context)}` };
  }
  const outcome = classifyOutcome({ ...run, ...about, parsed, exitCodes: spec.exitCodes });
  if (outcome.kind !== 'overloaded' || !UNREACHABLE.test(outcome.reason ?? '')) return outcome;
  const endpoint = await spec.endpoint?.(context);
  if (endpoint === undefined || outcome.reason?.includes(endpoint)) return outcome;
  return { ...outcome, reason: `${outcome.reason} (model endpoint ${endpoint})` };
}

/**
 * The model the CLI reports, else what it recorded elsewhere (codex's session file or config),
 * else the one requested. A different one than requested is logged: CLIs fall back to smaller
 * models on their own (REFERENCE.md), and a silent downgrade is a signal.
 */
async function modelThatRan(
  spec: AgentCliSpec,
  run: RunProcessResult,
  parsed: ParsedAgentOutput,
  context: AgentRunContext,
  provider: string,
): Promise<string | undefined> {
  const read = parsed.model ?? (run.spawnError === undefined ? await spec.readModel?.(parsed, context) : undefined);
  const { requested } = context;
  if (requested !== undefined && read !== undefined && read !== requested) {
    getLogger().warn({ provider, requested, ran: read }, 'agent ran a different model than requested');
  }
  return read ?? requested;
}
