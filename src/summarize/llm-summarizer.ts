import type { LanguageModel } from 'ai';
import { BatonError, errorMessage } from '../errors/index.js';
import { summaryTargetTokens } from './summary-target.js';
import type { SummarizeRequest, Summarizer } from './types.js';
import { llmSchema } from './summarizer-options-schema.js';
import { parseInput } from '../util/index.js';

/** Version of the summary prompt below; part of every LLM summary's cache key. */
export const SUMMARY_PROMPT_VERSION = '1.0.0';

/**
 * The dedicated summary prompt (seed 003). It asks for what duplicate prevention needs: the
 * topics an answer covered and its key recommendations, not a retelling.
 */
export const SUMMARY_SYSTEM_PROMPT = [
  'You summarize one expert answer so that other experts answering the same question after it know what it already covered and do not repeat it.',
  'Keep: every topic the answer covered, its key recommendations and conclusions, and any specific numbers, names or steps it gave.',
  'Drop: examples, repetition, pleasantries and explanations of why.',
  'Write plain, compact bullet points in the language of the answer. Do not add anything the answer did not say. Do not address the reader.',
].join('\n');

/** The user message of a summary request: the length to aim for, then the answer itself. */
export function buildSummaryRequest(text: string, targetTokens: number): string {
  const words = Math.max(10, Math.round(targetTokens * 0.75));
  return `Summarize the answer below in at most about ${words} words (${targetTokens} tokens, 20-30% of its length).\n\n<answer>\n${text}\n</answer>`;
}

/** @default 30000: a summary that takes longer is not worth waiting for (the seed aims at < 3 s). */
export const DEFAULT_SUMMARY_TIMEOUT_MS = 30_000;

export interface LlmSummarizerOptions {
  /** An AI SDK 6 language model (openai-compatible, anthropic, google, ...). */
  model: LanguageModel;
  /** Names the model in the summarizer id, hence in cache keys, e.g. `openai-compatible:qwen-plus`. */
  modelId: string;
  /** @default DEFAULT_SUMMARY_TIMEOUT_MS */
  timeoutMs?: number;
}

/**
 * A summarizer that asks an LLM, with the dedicated summary prompt (SUMMARY_SYSTEM_PROMPT).
 * One call per summary, no retries (the caller falls back instead of waiting). Wrap it in
 * `withSummaryCache` so the same text is summarized once.
 *
 * @throws BatonError('PROVIDER_FAILED') when the call fails, times out or returns no text;
 *   'CONFIG_INVALID' at creation for an unknown option (naming the spelling expected) or a missing model.
 * @example
 * const summarizer = withSummaryCache(createLlmSummarizer({ model, modelId: 'openai-compatible:qwen-plus' }), cache);
 */
export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer {
  parseInput(llmSchema, options, { what: 'createLlmSummarizer options' });
  const timeoutMs = options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS;
  const id = `${options.modelId}@summary-prompt/${SUMMARY_PROMPT_VERSION}`;
  return {
    id,
    async summarize(text: string, request: SummarizeRequest = {}): Promise<string> {
      const targetTokens = request.targetTokens ?? summaryTargetTokens(text);
      // The AI SDK loads with the first summary, not with the module (about 80 ms of start-up).
      const { generateText } = await import('ai');
      const timeout = AbortSignal.timeout(timeoutMs);
      let summary: string;
      try {
        const result = await generateText({
          model: options.model,
          system: SUMMARY_SYSTEM_PROMPT,
          prompt: buildSummaryRequest(text, targetTokens),
          // Room to finish the last bullet; whether the summary fits is the packer's call.
          maxOutputTokens: Math.ceil(targetTokens * 1.5) + 32,
          maxRetries: 0,
          abortSignal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
        });
        summary = result.text.trim();
      } catch (error) {
        const why = timeout.aborted ? `timed out after ${timeoutMs} ms` : errorMessage(error);
        throw new BatonError('PROVIDER_FAILED', `Summary by ${options.modelId} failed: ${why}`, {
          cause: error,
          details: { summarizer: id },
        });
      }
      if (!summary) {
        throw new BatonError('PROVIDER_FAILED', `Summary by ${options.modelId} came back empty`, {
          details: { summarizer: id },
        });
      }
      return summary;
    },
  };
}
