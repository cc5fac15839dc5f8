import type { AgentProcess, OutcomeKind } from '../ledger/index.js';

/** What one provider try produced. Expected failures are values here, never throws. */
export interface Outcome {
  kind: OutcomeKind;
  /** When the provider said it may be used again (rate limit / quota reset). */
  resetAt?: number;
  /** One line saying why, for logs, dispatch results and pre-context. */
  reason?: string;
}

export interface TokenUsage {
  input?: number;
  output?: number;
  total?: number;
}

export interface ProviderRunRequest {
  prompt: string;
  cwd: string;
  /** Baton's own wall-clock limit, above the agent's internal retries. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Requested model, when the provider lets you choose. */
  model?: string;
  /** Extra environment for the agent process. */
  env?: Record<string, string>;
  /** Task this try belongs to; command providers see it as BATON_TASK_ID. */
  taskId?: string;
  /** Attempt number (1-based); command providers see it as BATON_ATTEMPT. */
  attempt?: number;
  /** Called right after the agent process started (process providers only), before Baton waits on it. */
  onProcessStart?: (process: AgentProcess) => void;
}

export interface ProviderResult {
  outcome: Outcome;
  exitCode?: number;
  /** Signal that ended the agent process, when one did (also when Baton sent it). */
  signal?: string;
  /** Captured output, capped: head and tail kept with a marker when it was larger. */
  output: string;
  /** Whether output was cut to fit the cap. */
  outputTruncated: boolean;
  /** The model that actually ran, when reported. */
  model?: string;
  usage?: TokenUsage;
  durationMs: number;
  /** The agent's final answer text, when its structured output has one. */
  response?: string;
}

/** Options of the process providers (agent CLIs, commands). */
export interface ProcessProviderOptions {
  /** Bytes kept per stream (head and tail). @default DEFAULT_OUTPUT_CAP_BYTES */
  outputCapBytes?: number;
  /** SIGTERM-to-SIGKILL grace when stopping the group. @default DEFAULT_KILL_GRACE_MS */
  killGraceMs?: number;
  /** Clock for relative reset times. @default Date.now */
  now?: () => number;
}

/** Runs one prompt with one agent (a CLI, an HTTP LLM, or any command). */
export interface Provider {
  readonly name: string;
  readonly type: string;
  run(request: ProviderRunRequest): Promise<ProviderResult>;
}

/** The agent CLIs Baton knows how to drive headless (REFERENCE.md's table). */
export type AgentCliType = 'gemini' | 'copilot' | 'cursor' | 'codex' | 'claude';

/**
 * What an agent CLI may do without asking (it cannot ask: it runs headless). Each CLI's flags for
 * each mode are in docs/supervisor.md.
 * - `edits`: edit files in the workspace; shell commands only where the CLI sandboxes them (codex).
 * - `workspace`: edit files and run the commands a coding task needs (tests, git, package
 *   installs), within the CLI's own limits (codex's sandbox, claude's command list, copilot's
 *   path checks).
 * - `full`: everything, no sandbox, no prompts: only on a machine you can throw away.
 */
export type AgentPermissions = 'edits' | 'workspace' | 'full';

/** Every provider type a config may declare. */
export type ProviderType = AgentCliType | 'http' | 'command';

/** Settings every provider type accepts. */
export interface BaseProviderConfig {
  /** Model to request; the model that actually ran is reported in the result. */
  model?: string;
  /** Extra environment for the agent process (CLI and command providers). */
  env?: NodeJS.ProcessEnv;
  /** Per-provider wall-clock limit, overriding the run's timeout when smaller. */
  timeoutMs?: number;
}

/** One of the five agent CLIs. */
export interface AgentCliProviderConfig extends BaseProviderConfig {
  type: AgentCliType;
  /** Executable to run. @default the CLI's usual name (gemini, copilot, cursor-agent, codex, claude) */
  binary?: string;
  /**
   * Extra arguments, placed where the CLI accepts options: before the `--` that ends them
   * (claude, codex, cursor), after Baton's own (gemini, copilot). @default []
   */
  args?: string[];
  /** What the agent may do without asking. @default DEFAULT_AGENT_PERMISSIONS ('workspace') */
  permissions?: AgentPermissions;
}

/** Any executable used as an agent: prompt on stdin and in BATON_PROMPT_FILE. */
export interface CommandProviderConfig extends BaseProviderConfig {
  type: 'command';
  /** argv: the executable then its arguments (relative paths already resolved by loadConfig). */
  command: string[];
}

/** Where an API key comes from: the literal value, or an environment variable read at run time. */
export type SecretRef = string | { env: string };

/** An HTTP LLM API through AI SDK 6. */
export interface HttpProviderConfig extends BaseProviderConfig {
  type: 'http';
  /** Which wire protocol. @default 'openai-compatible' */
  api?: 'openai-compatible' | 'anthropic' | 'google';
  /** API base URL, e.g. http://127.0.0.1:11434/v1. Required for openai-compatible. */
  baseURL?: string;
  /** Model id; required because an HTTP API has no default. */
  model: string;
  apiKey?: SecretRef;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Cap on generated tokens. */
  maxOutputTokens?: number;
}

/** A provider as declared in baton.config.json, after validation. */
export type ProviderConfig = AgentCliProviderConfig | CommandProviderConfig | HttpProviderConfig;
