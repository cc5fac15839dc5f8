import type { Summarizer } from '../summarize/index.js';
import type { TokenCounter } from '../tokens/index.js';

/** A tool invocation made by the model. `args` is the parsed argument object (or `{ command }` for text actions). */
export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** One thing that happened in an agent loop, recorded in order. */
export type LoopEvent =
  | { kind: 'system'; text: string }
  /** `reference` marks material the user attached that is not the task (e.g. a demonstration). */
  | { kind: 'user'; text: string; reference?: boolean }
  | { kind: 'assistant'; text: string; toolCalls?: ToolCall[] }
  | {
      kind: 'tool';
      callId: string;
      name: string;
      text: string;
      /** Process exit code, when the tool ran a command and reported one. */
      exitCode?: number;
      /**
       * The framework's error flag for the result (Anthropic `is_error`, LangChain `status: "error"`,
       * an AI SDK `error-text` output). Unset when the framework says nothing; a non-zero exit code
       * stated in the text counts as a failure either way.
       */
      isError?: boolean;
      /** The file open in the agent's editor after the call (SWE-agent `state.open_file`). */
      openFile?: string;
    };

/** What kind of work a tool did; selects its output processor. */
export type ToolKind = 'read_file' | 'edit_file' | 'grep' | 'list_dir' | 'terminal' | 'other';

/** A message of the assembled context, provider-neutral. */
export type ContextMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; callId: string; name: string; content: string; isError?: boolean };

/**
 * How a past turn is shown: `verbatim`; `compact` (outputs verbatim, the calls' long arguments
 * shrunk: an old Edit's bodies become `[12 lines]`); `summary`; `masked` (one line per output).
 * Every level but `verbatim` shows the calls compacted.
 */
export type TurnLevel = 'verbatim' | 'compact' | 'summary' | 'masked';

/** The context assembled for one model call. */
export interface AssembledContext {
  messages: ContextMessage[];
  /** The messages rendered as one text (what the budget measures). */
  text: string;
  /** Token count of `text` as planned (sum of cached section counts plus separators). */
  tokens: number;
  /** The budget it was packed into. */
  budget: number;
  /** True when this build re-planned older turns (masking, dropping); prefixes change only then. */
  compacted: boolean;
  /** Per section id, how it ended up. */
  sections: { id: string; tokens: number; action: 'kept' | 'trimmed' | 'summarized' }[];
  dropped: string[];
}

/** Per-category ceilings, as shares of the budget. */
export interface CategoryShares {
  /** @default 0.35 */
  system: number;
  /** @default 0.25 */
  goal: number;
  /** Core state, key decisions and the file tracker. @default 0.1 */
  state: number;
  /** Relevant code snippets. @default 0.1 */
  snippets: number;
  /** Attached reference material such as demonstrations. @default 0.05 */
  reference: number;
}

/** Limits that a retry may lower for one assembly only. */
export interface AssembleOverrides {
  /** Keep only the last N turns (older ones are left out, not masked). */
  keepTurns?: number;
  /** Turns shown verbatim at most. */
  recentTurns?: number;
  /** At most this many snippets. */
  maxSnippets?: number;
  /** 'summary' shows even the recent tool outputs as processor summaries (retry 2). @default 'verbose' */
  toolResults?: 'verbose' | 'summary';
  /** Multiplies every category share. */
  shareFactor?: number;
}

/** Options of one assembly. */
export interface AssembleOptions extends AssembleOverrides {
  /** Token budget for the prompt; defaults to the manager's limit minus its answer reserve. */
  budget?: number;
}

/** Options of a ContextManager; defaults are the DEFAULT_* constants in defaults.ts. */
export interface ContextManagerOptions {
  /** The model's context window, in tokens. @default contextLimitFor(model): DEFAULT_CONTEXT_LIMIT (128,000) for an unknown model or none */
  limitTokens?: number;
  /** Used to look up `limitTokens` when it is not given. */
  model?: string;
  /** Left free for the model's answer. @default 4096 */
  reserveTokens?: number;
  /** Turns kept verbatim after a compaction. @default 3 */
  recentTurns?: number;
  /** Extra verbatim turns allowed to accumulate before the next compaction. @default 2 */
  compactEveryTurns?: number;
  /** Turns older than this are masked to one line; younger ones show processor summaries. @default 6 */
  maskAfterTurns?: number;
  /** Compact when the planned context passes this share of the budget. @default 0.9 */
  highWater?: number;
  /** A compaction aims for this share of the budget. @default 0.7 */
  lowWater?: number;
  /** @default 8 */
  maxSnippets?: number;
  /** @default DEFAULT_CATEGORY_SHARES */
  shares?: Partial<CategoryShares>;
  /** @default o200kCounter */
  counter?: TokenCounter;
  /**
   * Optional LLM summarizer for long tool outputs. Called in the background when the output is
   * recorded and never awaited: until (unless) it answers, the deterministic processor summary
   * is used, so assembly never waits on the network. @default none
   */
  summarizer?: Summarizer;
  /**
   * Record Prometheus metrics for each assembly (`baton_loop_*`, served by `/metrics`). A one-shot
   * process that never serves them (a CLI command) turns this off and skips loading prom-client.
   * @default true
   */
  metrics?: boolean;
}

/** Resolved options: every default applied once; `budget` is the window less the answer reserve. */
export type ResolvedManagerOptions = Required<
  Omit<ContextManagerOptions, 'limitTokens' | 'model' | 'reserveTokens' | 'shares' | 'summarizer'>
> & {
  budget: number;
  shares: CategoryShares;
  summarizer: Summarizer | undefined;
};
