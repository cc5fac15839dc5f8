/** Summarizers and summary caches from code: an unknown option or a missing model is named when one is made. */
import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer, createLlmSummarizer, DiskSummaryCache, MemorySummaryCache } from '../../src/summarize/index.js';

describe('summarizer options', () => {
  it('createLlmSummarizer names a misspelled option with the spelling expected, and a missing model', () => {
    expect(() => createLlmSummarizer({ model: {}, modelID: 'x:y' } as never)).toThrow(
      'createLlmSummarizer options is invalid:\n  modelId: expected the model id for the summarizer id and cache keys (provider:model)\n  unknown key "modelID" (did you mean "modelId"?)',
    );
    expect(() => createLlmSummarizer({ modelId: 'x:y' } as never)).toThrow(
      /^createLlmSummarizer options: model: expected an AI SDK language model/,
    );
  });

  it('the extractive summarizer and the caches name an unknown option', () => {
    expect(() => createExtractiveSummarizer({ tokenCounter: { count: () => 1 } } as never)).toThrow(
      'createExtractiveSummarizer options: unknown key "tokenCounter" (expected one of: counter)',
    );
    expect(() => new MemorySummaryCache({ max_entries: 5 } as never)).toThrow(
      'MemorySummaryCache options: unknown key "max_entries" (did you mean "maxEntries"?)',
    );
    expect(() => new DiskSummaryCache({ dir: '/tmp' } as never)).toThrow(
      'new DiskSummaryCache: dir: expected the cache folder path; got {"dir":"/tmp"}',
    );
  });
});
