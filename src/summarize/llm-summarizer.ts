import type { LanguageModel } from 'ai';
import { BatonError, errorMessage } from '../errors/index.js';
import { buildSummaryRequest, SUMMARY_PROMPT_VERSION, SUMMARY_SYSTEM_PROMPT } from './summary-prompt.js';
import { summaryTargetTokens } from './summary-target.js';
import type { SummarizeRequest, Summarizer } from './types.js';
import { llmSchema } from './summarizer-options-schema.js';
import { parseInput } from '../util/index.js';

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
