import { ContextManager, MIN_BUDGET_TOKENS, type SnippetExtractor } from '../../loop/index.js';
import { o200kCounter, type TokenCounter, truncateToTokens } from '../../tokens/index.js';
import type { AgentSession } from '../types.js';
import { type HandoffFacts, sessionFacts, sessionFactsBlock } from './session-facts-block.js';
import { sessionLoopEvents, TRANSCRIPT_TAIL_EVENTS } from './session-loop-events.js';

/** The agent CLIs a handoff can start. */
export const HANDOFF_TARGETS = ['claude', 'codex', 'gemini', 'copilot', 'opencode'] as const;
export type HandoffTarget = (typeof HANDOFF_TARGETS)[number];

/** A handoff's default size: a first prompt every target takes without crowding its own context. */
export const DEFAULT_HANDOFF_BUDGET = 2500;

const CLIENT_LABELS: Record<string, string> = {
  claude: 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
  copilot: 'Copilot CLI',
  opencode: 'OpenCode',
};
const SYSTEM = 'Transcript of the previous session, condensed (older turns summarized):';

export interface BuildHandoffOptions {
  session: AgentSession;
  /**
   * The header's facts when `session` is a window of the session (its first request and newest
   * events: readHandoffSession); @default read from `session` (the whole session).
   */
  facts?: HandoffFacts;
  target: HandoffTarget;
  /** @default DEFAULT_HANDOFF_BUDGET */
  budget?: number;
  /** The workspace's state now (git, ledger), rendered; kept within a fifth of the budget. */
  workspaceState?: string;
  /** @default o200kCounter */
  counter?: TokenCounter;
  /**
   * Code snippets for the transcript (createSnippetExtractor). @default none: parsing every file
   * the session read costs about a second on a large session, and the next agent reads the files
   * themselves.
   */
  extractor?: SnippetExtractor;
}

export interface Handoff {
  text: string;
  tokens: number;
  budget: number;
  /** Tokens of the transcript part, as the loop manager's assembly planned them. */
  transcriptTokens: number;
}

/**
 * The handoff to the next agent CLI: a header of the session's facts (task, newest request, how it
 * ended, files edited, newest failure, open plan, last actions), the workspace's state, and the
 * session's transcript through the loop context manager (ContextManager record → assemble) in what
 * is left of the budget. Starts with `---` (a seam block); never over `budget` tokens.
 */
export async function buildHandoff(options: BuildHandoffOptions): Promise<Handoff> {
  const counter = options.counter ?? o200kCounter;
  const budget = options.budget ?? DEFAULT_HANDOFF_BUDGET;
  const { session } = options;
  const from = CLIENT_LABELS[session.client] ?? session.client;
  const head = [
    `--- Handoff from ${from} to ${CLIENT_LABELS[options.target]} (Baton) ---`,
    'You are taking over work another agent session started in this workspace. Continue it: check the state below, then go on with the newest request.',
    sessionFactsBlock(options.facts ?? sessionFacts(session), from),
  ].join('\n\n');
  const state = options.workspaceState ? truncateToTokens(`## Workspace now\n${options.workspaceState}`, Math.floor(budget / 5)) : '';
  const fixed = fitTo([head, state].filter(Boolean).join('\n\n'), Math.floor(budget * 0.6), counter);
  const left = budget - fixed.tokens - 16;
  let transcript: { text: string; tokens: number } | undefined;
  if (left >= MIN_BUDGET_TOKENS) {
    // A handoff is one assembly in a one-shot process: no loop metrics (and no prom-client load).
    const manager = new ContextManager({ counter, metrics: false }, options.extractor);
    // Events built here from the parsed session: no per-event schema check (the readers' output is typed).
    manager.recordTrusted(sessionLoopEvents(session, SYSTEM, TRANSCRIPT_TAIL_EVENTS));
    const assembled = manager.assemble({ budget: left });
    if (assembled.text) transcript = assembled;
  }
  const whole = fitTo(
    transcript ? `${fixed.text}\n\n## Transcript\n${transcript.text}\n--- end of handoff ---` : fixed.text,
    budget,
    counter,
  );
  return { text: whole.text, tokens: whole.tokens, budget, transcriptTokens: transcript?.tokens ?? 0 };
}

/** `text` cut to `limit` tokens when over it, with its count: one count when it fits (the usual case), not a cut and a count. */
function fitTo(text: string, limit: number, counter: TokenCounter): { text: string; tokens: number } {
  const tokens = counter.count(text);
  if (tokens <= limit) return { text, tokens };
  const cut = truncateToTokens(text, limit);
  return { text: cut, tokens: counter.count(cut) };
}
