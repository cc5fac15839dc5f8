import * as z from 'zod';
import { objectWithMethods, parseInput } from '../util/index.js';

/**
 * The summarizers' and summary caches' options from code, checked once when one is made: strict,
 * so `{ modelID }` names `modelId`. Built once at module load.
 */
const counter = objectWithMethods(['count'], 'a TokenCounter ({ count(text): number })');

const MODEL_ID = 'expected the model id for the summarizer id and cache keys (provider:model)';

export const llmSchema = z.strictObject({
  model: z.custom((value) => (typeof value === 'object' && value !== null) || typeof value === 'string', {
    message: 'expected an AI SDK language model (openai("gpt-4o-mini"), createOpenAICompatible(...)(id), ...)',
  }),
  modelId: z.string({ error: MODEL_ID }).min(1, MODEL_ID),
  timeoutMs: z.number().int().min(1).optional(),
});

export const extractiveSchema = z.strictObject({ counter: counter.optional() });

export const memoryCacheSchema = z.strictObject({
  maxEntries: z.number().int().min(1).optional(),
  backing: objectWithMethods(['get', 'set'], 'a SummaryCache (MemorySummaryCache, DiskSummaryCache)').optional(),
});

const cacheDirSchema = z.strictObject({
  dir: z.string({ error: 'expected the cache folder path' }).min(1, 'expected the cache folder path'),
});

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkLlmSummarizerOptions(options: unknown): void {
  parseInput(llmSchema, options, { what: 'createLlmSummarizer options' });
}

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkExtractiveOptions(options: unknown): void {
  parseInput(extractiveSchema, options, { what: 'createExtractiveSummarizer options' });
}

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkMemoryCacheOptions(options: unknown): void {
  parseInput(memoryCacheSchema, options, { what: 'MemorySummaryCache options' });
}

/** @throws BatonError CONFIG_INVALID unless `dir` is a folder path. */
export function checkCacheDir(dir: unknown): void {
  parseInput(cacheDirSchema, { dir }, { what: 'new DiskSummaryCache' });
}
