/** Plain types of the panel (seed 003). The file schema lives at the edge, in panel-schema.ts. */
import type { OutcomeKind } from '../ledger/index.js';

/**
 * How earlier answers reach a later agent: as its own `assistant` turns (the seed's default), or
 * as `user` turns "For context, <agent> said: …", which keeps agents from copying answers they
 * take for their own.
 */
export type Attribution = 'assistant' | 'user';

/** What a later agent was given: the earlier answers in full, (some of them as) summaries, or nothing. */
export type ContextMode = 'full' | 'summaries' | 'none';

export type PanelProviderKind = 'openai-compatible' | 'anthropic' | 'google';

/** One HTTP model through AI SDK 6, with its API key already resolved. */
export interface PanelHttpModelSpec {
  provider: PanelProviderKind;
  model: string;
  /** Required for openai-compatible (e.g. `http://127.0.0.1:8080/v1`). */
  baseURL?: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

/**
 * A Baton provider by name (an agent CLI, a command or an HTTP provider from baton.config.json).
 * It gets the conversation flattened into one prompt and answers in one piece (no token stream).
 */
export interface PanelBatonModelSpec {
  provider: 'baton';
  name: string;
  /** Model to ask the provider for. @default the provider's own */
  model?: string;
}

export type PanelModelSpec = PanelHttpModelSpec | PanelBatonModelSpec;

/** A system prompt file with its front matter. */
export interface PanelPrompt {
  /** Front matter `name`, else the file's base name. */
  name: string;
  /** Front matter `version` (e.g. 1.2.0). */
  version: string;
  /** The prompt body, without front matter. */
  text: string;
  /** Absolute path of the prompt file. */
  file: string;
}

export interface PanelAgent {
  name: string;
  prompt: PanelPrompt;
  model: PanelModelSpec;
  /** Overrides the panel's. */
  maxContextTokens?: number;
  maxOutputTokens?: number;
  timeoutMs?: number;
  summaryModel?: PanelHttpModelSpec;
}

/** A validated panel: an ordered list of agents answering one question in turn. */
export interface PanelConfig {
  /** @default 'assistant' */
  attribution: Attribution;
  /** The context window every agent is held to, unless the agent sets its own. @default contextLimitFor(model) */
  maxContextTokens?: number;
  /** Reserved answer length per agent. @default DEFAULT_PANEL_MAX_OUTPUT_TOKENS */
  maxOutputTokens?: number;
  /** Wall-clock limit of one agent's answer. @default DEFAULT_PANEL_AGENT_TIMEOUT_MS */
  timeoutMs?: number;
  /**
   * Writes the summaries of earlier answers. @default each receiving agent's own model; for a
   * Baton provider agent, the offline extractive summarizer
   */
  summaryModel?: PanelHttpModelSpec;
  agents: PanelAgent[];
  /** The panel file it came from, for messages. */
  file?: string;
}

/** One agent's answer, successful or not. */
export interface PanelAnswer {
  agent: string;
  /** Position in the panel, from 0. */
  index: number;
  ok: boolean;
  /** The answer; on failure, whatever streamed before the failure (never passed on). */
  text: string;
  error?: string;
  outcome: OutcomeKind;
  contextMode: ContextMode;
  /** Agents whose answers (or summaries) this agent received, in order. */
  contextFrom: string[];
  /** Why context was left out although earlier answers existed. */
  contextFallback?: ContextFallbackReason;
  model: string;
  promptVersion: string;
  tokens: { input: number; output: number; context: number };
  durationMs: number;
  dispatchId: string;
}

export type ContextFallbackReason = 'no_room' | 'summary_failed' | 'summaries_too_long';

/** What `runPanel` returns. */
export interface PanelResult {
  /** Id of the session record in the ledger. */
  session: string;
  /** The dispatches' task id: `panel:<session>`. */
  taskId: string;
  question: string;
  attribution: Attribution;
  answers: PanelAnswer[];
}

/** An earlier answer as a later agent sees it. */
export interface PriorAnswer {
  agent: string;
  text: string;
  /** Whether `text` is a summary of the answer rather than the answer. */
  summarized?: boolean;
}
