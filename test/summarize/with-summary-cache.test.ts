import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMetrics } from '../../src/observability/index.js';
import { DiskSummaryCache, MemorySummaryCache, type Summarizer, summaryCacheKey, withSummaryCache } from '../../src/summarize/index.js';

/** A fake summarizer (no model is needed to test caching) that counts its calls. */
function countingSummarizer(id = 'fake@1', fail = false): Summarizer & { calls: string[] } {
  const calls: string[] = [];
  return {
    id,
    calls,
    async summarize(text) {
      calls.push(text);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new Error('model down');
      return `summary of ${text.slice(0, 10)}`;
    },
  };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('withSummaryCache', () => {
  it('summarizes a text once: the repeat is a cache hit', async () => {
    const inner = countingSummarizer();
    const cached = withSummaryCache(inner, new MemorySummaryCache());
    const first = await cached.summarize('The same long answer.');
    expect(await cached.summarize('The same long answer.')).toBe(first);
    expect(inner.calls).toHaveLength(1);
    expect(await renderMetrics()).toMatch(/baton_summary_cache_hits_total \d+/);
  });

  it('shares one call between concurrent requests for the same text', async () => {
    const inner = countingSummarizer();
    const cached = withSummaryCache(inner, new MemorySummaryCache());
    await Promise.all([cached.summarize('Answer A'), cached.summarize('Answer A'), cached.summarize('Answer B')]);
    expect(inner.calls).toEqual(['Answer A', 'Answer B']);
  });

  it('keys by summarizer id, target and text: a new model or target is a new summary', async () => {
    const cache = new MemorySummaryCache();
    const a = countingSummarizer('model-a@1');
    const b = countingSummarizer('model-b@1');
    await withSummaryCache(a, cache).summarize('text', { targetTokens: 30 });
    await withSummaryCache(a, cache).summarize('text', { targetTokens: 40 });
    await withSummaryCache(b, cache).summarize('text', { targetTokens: 30 });
    expect([a.calls.length, b.calls.length]).toEqual([2, 1]);
    expect(summaryCacheKey('model-a@1', 'text', 30)).toMatch(/^[0-9a-f]{64}$/);
    expect(summaryCacheKey('model-a@1', 'text', 30)).not.toBe(summaryCacheKey('model-b@1', 'text', 30));
  });

  it('does not cache failures, so a later request tries again', async () => {
    const inner = countingSummarizer('down@1', true);
    const cached = withSummaryCache(inner, new MemorySummaryCache());
    await expect(cached.summarize('x')).rejects.toThrow('model down');
    await expect(cached.summarize('x')).rejects.toThrow('model down');
    expect(inner.calls).toHaveLength(2);
  });
});

describe('MemorySummaryCache', () => {
  it('evicts the least recently used entry past its size', async () => {
    const cache = new MemorySummaryCache({ maxEntries: 2 });
    await cache.set('a', '1');
    await cache.set('b', '2');
    await cache.get('a');
    await cache.set('c', '3');
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c')]).toEqual(['1', undefined, '3']);
  });

  it('reads through to a disk cache, so summaries survive a new process', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'baton-summaries-'));
    dirs.push(dir);
    const inner = countingSummarizer();
    await withSummaryCache(inner, new MemorySummaryCache({ backing: new DiskSummaryCache(dir) })).summarize('persisted answer');
    expect((await readdir(dir)).filter((f) => f.endsWith('.txt'))).toHaveLength(1);
    // A fresh memory cache stands for a new CLI run.
    const again = withSummaryCache(inner, new MemorySummaryCache({ backing: new DiskSummaryCache(dir) }));
    expect(await again.summarize('persisted answer')).toBe('summary of persisted ');
    expect(inner.calls).toHaveLength(1);
  });

  it('treats a missing disk cache folder as empty', async () => {
    const cache = new DiskSummaryCache(path.join(tmpdir(), 'baton-no-such-dir', 'x'));
    expect(await cache.get('a'.repeat(64))).toBeUndefined();
  });
});
