import * as z from 'zod';
import { objectWithMethods, parseInput, type SchemaFor } from '../util/index.js';
import type { LlmSummarizerOptions } from './llm-summarizer.js';

/**
 * The summarizers' and summary caches' options from code, checked once when one is made: strict,
 * so `{ modelID }` names `modelId`. Built once at module load.
 */
const counter = objectWithMethods(['count'], 'a TokenCounter ({ count(text): number })');

const MODEL_ID = 'expected the model id for the summarizer id and cache keys (provider:model)';

const llmSchema = z.strictObject({
  model: z.custom((value) => (typeof value === 'object' && value !== null) || typeof value === 'string', {
    message: 'expected an AI SDK language model (openai("gpt-4o-mini"), createOpenAICompatible(...)(id), ...)',
  }),
  modelId: z.string({ error: MODEL_ID }).min(1, MODEL_ID),
  timeoutMs: z.number().int().min(1).optional(),
});

const extractiveSchema = z.strictObject({ counter: counter.optional() });

const memoryCacheSchema = z.strictObject({
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

// Each schema below is tied to the interface it mirrors: a key or type added to one alone fails the build.
export const LLM_SUMMARIZER_OPTIONS_MATCH: SchemaFor<LlmSummarizerOptions, typeof llmSchema> = true;
