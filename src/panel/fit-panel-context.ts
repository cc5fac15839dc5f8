import { packSections, type Section } from '../budget/index.js';
import { o200kCounter, type TokenCounter } from '../tokens/index.js';
import { renderContextMessage } from './build-agent-messages.js';
import type { Attribution, ContextFallbackReason, ContextMode, PriorAnswer } from './types.js';

/** Per-message framing (role, separators) that chat APIs add to every message. @default 4 */
export const DEFAULT_MESSAGE_OVERHEAD_TOKENS = 4;

export interface FitPanelContextInput {
  /** The system prompt as it will be sent with context (duplicate-prevention instructions included). */
  system: string;
  question: string;
  /** Earlier successful answers, chronological. */
  answers: readonly PriorAnswer[];
  /**
   * Summaries by index into `answers`. Leave undefined on the first call; after `needsSummaries`,
   * pass the summaries that could be made (a failed summary is simply absent).
   */
  summaries?: ReadonlyMap<number, string>;
  attribution: Attribution;
  /** The model's context window. */
  limitTokens: number;
  /** The answer length reserved for the agent (its maxOutputTokens). */
  reserveTokens: number;
  /** @default o200kCounter */
  counter?: TokenCounter;
  /** @default DEFAULT_MESSAGE_OVERHEAD_TOKENS */
  messageOverheadTokens?: number;
}

export interface FitPanelContextResult {
  mode: ContextMode;
  /** What to pass on, in order (summaries flagged `summarized`); empty when mode is 'none'. */
  context: PriorAnswer[];
  /** The answers do not fit in full and no summaries were given: summarize, then call again. */
  needsSummaries: boolean;
  /** Why earlier answers exist but none are passed. */
  fallback?: ContextFallbackReason;
  /** Tokens left for earlier answers once system, question, reserve and framing are counted. */
  budgetTokens: number;
  /** Tokens of the context passed. */
  contextTokens: number;
}

/**
 * Decides what earlier answers a later agent can receive within its model's window (seed 003).
 * Pure. The decision is made by the project's one packer, `packSections`:
 *
 * - budget = limit - system - question - reserve - framing of every message;
 * - each answer is a section (as the message it will become, so attribution text is counted),
 *   prioritised by age: the oldest answer gives way first;
 * - without summaries every section may only be dropped: if anything had to go, the caller is
 *   told to summarize (`needsSummaries`);
 * - with summaries a section's overflow is 'summarize' with the summary as its stand-in, so only
 *   as many answers as needed are replaced, oldest first. If the packer still had to drop or trim
 *   anything (a summary failed, or summaries are still too long) nothing is passed: a cut answer
 *   would mislead, and the seed's fallback is "no context".
 */
export function fitPanelContext(input: FitPanelContextInput): FitPanelContextResult {
  const counter = input.counter ?? o200kCounter;
  const overhead = input.messageOverheadTokens ?? DEFAULT_MESSAGE_OVERHEAD_TOKENS;
  const budgetTokens =
    input.limitTokens -
    input.reserveTokens -
    counter.count(input.system) -
    counter.count(input.question) -
    overhead * (input.answers.length + 2);
  const none = (fallback?: ContextFallbackReason, needsSummaries = false): FitPanelContextResult => ({
    mode: 'none',
    context: [],
    needsSummaries,
    fallback,
    budgetTokens,
    contextTokens: 0,
  });
  if (input.answers.length === 0) return none();
  if (budgetTokens <= 0) return none('no_room');

  const summaryTexts = input.answers.map((answer, i) => {
    const summary = input.summaries?.get(i);
    return summary === undefined
      ? undefined
      : renderContextMessage({ ...answer, text: summary, summarized: true }, input.attribution).content;
  });
  const sections: Section[] = input.answers.map((answer, i) => ({
    id: String(i),
    text: renderContextMessage(answer, input.attribution).content,
    priority: i,
    overflow: summaryTexts[i] === undefined ? 'drop' : 'summarize',
    summary: summaryTexts[i],
  }));
  const packed = packSections(sections, { budget: budgetTokens, separator: '', counter });
  const untouched = packed.dropped.length === 0 && packed.trimmed.length === 0 && packed.summarized.length === 0;
  if (untouched) return { mode: 'full', context: [...input.answers], needsSummaries: false, budgetTokens, contextTokens: packed.tokens };
  if (input.summaries === undefined) return none(undefined, true);

  // packSections reports a summary it then trimmed as 'summarized'; compare texts to catch that.
  const cut = [...packed.dropped, ...packed.trimmed].map(Number);
  for (const section of packed.sections) {
    if (section.action === 'summarized' && section.text !== summaryTexts[Number(section.id)]) cut.push(Number(section.id));
  }
  if (cut.length > 0) {
    return none(cut.some((i) => summaryTexts[i] === undefined) ? 'summary_failed' : 'summaries_too_long');
  }
  const summarized = new Set(packed.summarized.map(Number));
  return {
    mode: 'summaries',
    context: input.answers.map((answer, i) =>
      summarized.has(i) ? { ...answer, text: input.summaries?.get(i) ?? answer.text, summarized: true } : answer,
    ),
    needsSummaries: false,
    budgetTokens,
    contextTokens: packed.tokens,
  };
}
