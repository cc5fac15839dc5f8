import type { OutcomeKind } from '../../ledger/index.js';
import type { AgentCliType, TokenUsage } from '../types.js';

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
  usage?: TokenUsage;
}

export interface AgentArgsOptions {
  prompt: string;
  /** The prompt goes on stdin instead of argv (too big for one argument). */
  promptOnStdin: boolean;
  cwd: string;
  model?: string;
}

/** How to drive one agent CLI headless (REFERENCE.md's table). */
export interface AgentCliSpec {
  type: AgentCliType;
  /** Executable name looked up on PATH. */
  defaultBinary: string;
  /** Baton's own arguments; configured extra args are appended after them. */
  buildArgs(options: AgentArgsOptions): string[];
  /** Environment the CLI needs to run unattended. */
  env?: Record<string, string>;
  /** Reads the CLI's structured output; must not throw on garbage. */
  parseOutput(stdout: string, stderr: string): ParsedAgentOutput;
  /** The CLI can read its prompt from stdin, which large prompts need. @default false */
  stdinPrompt?: boolean;
  /** Exit codes with a documented meaning. */
  exitCodes?: Readonly<Record<number, OutcomeKind>>;
}
