import * as z from 'zod';
import { abortSignalOption, functionOption, objectWithMethods } from '../util/index.js';
import { MIN_BUDGET_TOKENS } from './defaults.js';
import type { Summarizer } from '../summarize/index.js';
import type { TokenCounter } from '../tokens/index.js';

/**
 * The zod schemas of the loop's options objects and events, checked where a user's object comes
 * in (createContextManager, assemble, record, retry, callWithContextRetry, the framework adapters):
 * strict, so a misspelled key is an error that names it and the spelling expected.
 */

const count = (min: number) => z.number().int().min(min);
const share = z.number().gt(0).max(1);

const categorySharesSchema = z.strictObject({
  system: share.optional(),
  goal: share.optional(),
  state: share.optional(),
  snippets: share.optional(),
  reference: share.optional(),
});

export const managerOptionsSchema = z.strictObject({
  limitTokens: count(1).optional(),
  model: z.string().optional(),
  reserveTokens: count(0).optional(),
  recentTurns: count(1).optional(),
  compactEveryTurns: count(0).optional(),
  maskAfterTurns: count(0).optional(),
  highWater: share.optional(),
  lowWater: share.optional(),
  maxSnippets: count(0).optional(),
  shares: categorySharesSchema.optional(),
  counter: objectWithMethods<TokenCounter>(['count'], 'a TokenCounter ({ count(text): number })').optional(),
  summarizer: objectWithMethods<Summarizer>(['summarize'], 'a Summarizer (createLlmSummarizer, createExtractiveSummarizer)').optional(),
  metrics: z.boolean().optional(),
});

export const assembleOverridesSchema = z.strictObject({
  keepTurns: count(1).optional(),
  recentTurns: count(0).optional(),
  maxSnippets: count(0).optional(),
  toolResults: z.enum(['verbose', 'summary']).optional(),
  shareFactor: share.optional(),
});

export const assembleOptionsSchema = assembleOverridesSchema.extend({ budget: count(MIN_BUDGET_TOKENS).optional() });

const toolCallSchema = z.strictObject({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) });

export const loopEventSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('system'), text: z.string() }),
  z.strictObject({ kind: z.literal('user'), text: z.string(), reference: z.boolean().optional() }),
  z.strictObject({ kind: z.literal('assistant'), text: z.string(), toolCalls: z.array(toolCallSchema).optional() }),
  z.strictObject({
    kind: z.literal('tool'),
    callId: z.string(),
    name: z.string(),
    text: z.string(),
    exitCode: z.number().int().optional(),
    isError: z.boolean().optional(),
    openFile: z.string().optional(),
  }),
]);

export const retryOptionsSchema = z.strictObject({
  maxRetries: count(0).max(20).optional(),
  initialDelayMs: z.number().min(0).optional(),
  maxDelayMs: z.number().min(0).optional(),
  factor: z.number().min(1).optional(),
  jitter: z.number().min(0).max(1).optional(),
  shouldRetry: functionOption<(error: unknown, attempt: number) => boolean>().optional(),
  delayHintMs: functionOption<(error: unknown) => number | undefined>().optional(),
  onRetry: functionOption<(info: { attempt: number; error: unknown; delayMs: number }) => void>().optional(),
  sleep: functionOption<(ms: number, signal?: AbortSignal) => Promise<void>>().optional(),
  random: functionOption<() => number>().optional(),
  signal: abortSignalOption.optional(),
});

export const contextRetryOptionsSchema = retryOptionsSchema.extend({
  assemble: assembleOptionsSchema.optional(),
  ladder: z.array(assembleOverridesSchema).min(1).optional(),
});

/** The adapters' options: a retry's, without `signal` (each model call brings its own). */
export const adapterOptionsSchema = contextRetryOptionsSchema.omit({ signal: true });
