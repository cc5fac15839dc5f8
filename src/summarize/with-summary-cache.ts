import { createHash } from 'node:crypto';
import { counter, gauge } from '../observability/index.js';
import { summaryTargetTokens } from './summary-target.js';
import type { SummarizeRequest, Summarizer, SummaryCache } from './types.js';

/**
 * The content hash a summary is cached under: sha256 over the summarizer id (model and prompt
 * version), the target length and the text. Any change to one of them is a different summary.
 */
export function summaryCacheKey(summarizerId: string, text: string, targetTokens: number): string {
  return createHash('sha256').update(summarizerId).update('\0').update(String(targetTokens)).update('\0').update(text).digest('hex');
}

let hits = 0;
let misses = 0;

function recordLookup(hit: boolean): void {
  if (hit) hits += 1;
  else misses += 1;
  counter(
    hit ? 'baton_summary_cache_hits_total' : 'baton_summary_cache_misses_total',
    hit ? 'Summaries served from the cache' : 'Summaries not found in the cache',
  ).inc();
  gauge('baton_summary_cache_hit_ratio', 'Share of summary lookups served from the cache, since start').set(hits / (hits + misses));
}

/**
 * Wraps a summarizer so each (summarizer id, target, text) is summarized once: answers come from
 * `cache` by content hash, and concurrent requests for the same key share one call. Failures are
 * not cached, so a later request tries again. Counts hits, misses and generated summaries
 * (`baton_summary_cache_hits_total`, `_misses_total`, `_hit_ratio`, `baton_summaries_generated_total`).
 */
export function withSummaryCache(summarizer: Summarizer, cache: SummaryCache): Summarizer {
  const inflight = new Map<string, Promise<string>>();
  return {
    id: summarizer.id,
    async summarize(text: string, request: SummarizeRequest = {}): Promise<string> {
      const targetTokens = request.targetTokens ?? summaryTargetTokens(text);
      const key = summaryCacheKey(summarizer.id, text, targetTokens);
      const pending = inflight.get(key);
      if (pending) {
        recordLookup(true);
        return pending;
      }
      // Registered before the first await, so concurrent requests for one key share it.
      const call = (async () => {
        const cached = await cache.get(key);
        recordLookup(cached !== undefined);
        if (cached !== undefined) return cached;
        const summary = await summarizer.summarize(text, { ...request, targetTokens });
        counter('baton_summaries_generated_total', 'Summaries produced by a summarizer (cache misses that succeeded)', ['summarizer']).inc({
          summarizer: summarizer.id.startsWith('extractive') ? 'extractive' : 'llm',
        });
        await cache.set(key, summary);
        return summary;
      })();
      inflight.set(key, call);
      try {
        return await call;
      } finally {
        inflight.delete(key);
      }
    },
  };
}
