import { errorMessage } from '../errors/index.js';
import { getLogger } from '../observability/index.js';
import { summaryTargetTokens, type Summarizer } from '../summarize/index.js';
import type { TokenCounter } from '../tokens/index.js';
import { type FitPanelContextInput, type FitPanelContextResult, fitPanelContext } from './fit-panel-context.js';

export interface PreparePanelContextInput extends Omit<FitPanelContextInput, 'summaries'> {
  /** Writes summaries when the answers do not fit in full. */
  summarizer: Summarizer;
  signal?: AbortSignal;
  counter: TokenCounter;
}

/** The fitting decision plus what summarizing cost. */
export interface PreparedPanelContext extends FitPanelContextResult {
  /** Summaries requested for this agent (cache hits included). */
  summariesRequested: number;
  /** Summaries that failed; their answers could only be dropped. */
  summaryErrors: string[];
}

/**
 * Fits earlier answers into an agent's window, summarizing on overflow: first `fitPanelContext` with
 * the answers in full; if they do not fit, every earlier answer is summarized in parallel (each
 * aimed at 25% of its length; the cache makes repeats free) and `fitPanelContext` decides again with
 * the summaries that succeeded. Never throws for a failed summary: it is logged and left out,
 * which makes the decision fall back to no context.
 */
export async function preparePanelContext(input: PreparePanelContextInput): Promise<PreparedPanelContext> {
  const first = fitPanelContext(input);
  if (!first.needsSummaries) return { ...first, summariesRequested: 0, summaryErrors: [] };
  const summaryErrors: string[] = [];
  const results = await Promise.all(
    input.answers.map(async (answer, i) => {
      try {
        const targetTokens = summaryTargetTokens(answer.text, input.counter);
        return [i, await input.summarizer.summarize(answer.text, { targetTokens, signal: input.signal })] as const;
      } catch (error) {
        const reason = errorMessage(error);
        summaryErrors.push(`${answer.agent}: ${reason}`);
        // Expected and handled (fallback to no context), so a line without a stack is enough.
        getLogger().warn({ agent: answer.agent, reason }, 'panel summary failed; that answer cannot be passed on');
        return undefined;
      }
    }),
  );
  const summaries = new Map<number, string>();
  for (const entry of results) if (entry) summaries.set(entry[0], entry[1]);
  return { ...fitPanelContext({ ...input, summaries }), summariesRequested: input.answers.length, summaryErrors };
}
