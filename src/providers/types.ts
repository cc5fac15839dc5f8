import type { OutcomeKind } from '../ledger/index.js';

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
}

export interface ProviderResult {
  outcome: Outcome;
  exitCode?: number;
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

/** Runs one prompt with one agent (a CLI, an HTTP LLM, or any command). */
export interface Provider {
  readonly name: string;
  readonly type: string;
  run(request: ProviderRunRequest): Promise<ProviderResult>;
}
