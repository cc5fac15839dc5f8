import type { OutcomeKind } from '../../ledger/index.js';
import type { AgentCliType, AgentPermissions, TokenUsage } from '../types.js';

/** What an agent's structured output said, before classification. */
export interface ParsedAgentOutput {
  /** Structured output was found and understood. */
  structured: boolean;
  /** The structured output reports a failure (claude can exit 0 with is_error: true). */
  isError?: boolean;
  /** Error text taken from the structured output. */
  errorText?: string;
  /** A kind the agent stated explicitly (claude's assistant.error, a command's outcome line). */
  kind?: OutcomeKind;
  /** A reset time the agent stated explicitly (epoch ms). */
  resetAt?: number;
  /** The agent's final answer. */
  response?: string;
  /** The model that actually ran. */
  model?: string;
  /** The CLI's own session id, when it reports one (codex's thread id names its session file). */
  sessionId?: string;
  usage?: TokenUsage;
}

export interface AgentArgsOptions {
  prompt: string;
  /** The prompt goes on stdin instead of argv (too big for one argument). */
  promptOnStdin: boolean;
  cwd: string;
  model?: string;
  /** What the agent may do without asking (each CLI's flags for it). */
  permissions: AgentPermissions;
  /**
   * The provider's configured `args`. Each CLI puts them where it accepts options: before the
   * `--` that ends options (claude, codex, cursor), or after Baton's own (gemini, copilot, whose
   * prompt is one `--prompt=…` argument).
   */
  extraArgs: readonly string[];
}

/** Where a run happens, for what a CLI reads after it ended (its config, its session files). */
export interface AgentRunContext {
  /** The environment the CLI ran with: the parent's with the provider's `env` over it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The whole argv after the binary, as the CLI got it. */
  args: readonly string[];
  /** The model Baton asked for, if any. */
  requested?: string;
}

/**
 * A line pattern that means the CLI is stuck retrying something that will not come back (codex
 * waits for an unreachable model endpoint forever): `count` such stdout lines in a row stop it.
 */
export interface StallRule {
  /** RegExp source matched against each stdout line. */
  pattern: string;
  count: number;
  /** The outcome's reason, from the last matching line and the run's context. */
  describe(line: string, context: AgentRunContext): Promise<string>;
}

/** How to drive one agent CLI headless (REFERENCE.md's table). */
export interface AgentCliSpec {
  type: AgentCliType;
  /** Executable name looked up on PATH. */
  defaultBinary: string;
  /** Baton's own arguments with the configured extra args where the CLI accepts them. */
  buildArgs(options: AgentArgsOptions): string[];
  /** Environment the CLI needs to run unattended. */
  env?: Record<string, string>;
  /** Reads the CLI's structured output; must not throw on garbage. */
  parseOutput(stdout: string, stderr: string): ParsedAgentOutput;
  /**
   * The model that ran when the output does not say (codex: its session file, else its config).
   * Must not throw; undefined when nothing says.
   */
  readModel?(parsed: ParsedAgentOutput, context: AgentRunContext): Promise<string | undefined>;
  /**
   * The model endpoint the CLI talks to (its base-URL variable, else its default), named when the
   * endpoint could not be reached. Must not throw.
   */
  endpoint?(context: AgentRunContext): Promise<string | undefined>;
  /** Stops a run that is stuck (see StallRule). */
  stall?: StallRule;
  /** The CLI can read its prompt from stdin, which large prompts need. @default false */
  stdinPrompt?: boolean;
  /** Exit codes with a documented meaning. */
  exitCodes?: Readonly<Record<number, OutcomeKind>>;
}
