import * as z from 'zod';
import { objectWithMethods } from '../util/index.js';

/**
 * The summarizers' and summary caches' options from code, checked once when one is made (parseInput,
 * CONFIG_INVALID naming each problem): strict, so `{ modelID }` names `modelId`. Built once at module load.
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

export const cacheDirSchema = z.strictObject({
  dir: z.string({ error: 'expected the cache folder path' }).min(1, 'expected the cache folder path'),
});
