import type { SummaryCache } from './types.js';
import { memoryCacheSchema } from './summarizer-options-schema.js';
import { parseInput } from '../util/index.js';

/** @default 500 summaries (a few hundred KB). */
export const DEFAULT_SUMMARY_CACHE_ENTRIES = 500;

/**
 * An in-memory LRU summary cache, optionally backed by another cache (e.g. `DiskSummaryCache`):
 * a miss here reads through to the backing cache and keeps what it finds; writes go to both.
 */
export class MemorySummaryCache implements SummaryCache {
  readonly #entries = new Map<string, string>();
  readonly #maxEntries: number;
  readonly #backing: SummaryCache | undefined;

  constructor(options: { maxEntries?: number; backing?: SummaryCache } = {}) {
    parseInput(memoryCacheSchema, options, { what: 'MemorySummaryCache options' });
    this.#maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_SUMMARY_CACHE_ENTRIES);
    this.#backing = options.backing;
  }

  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<string | undefined> {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      // Re-insert so Map order is least-recently-used first.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const backed = await this.#backing?.get(key);
    if (backed !== undefined) this.#remember(key, backed);
    return backed;
  }

  async set(key: string, summary: string): Promise<void> {
    this.#remember(key, summary);
    await this.#backing?.set(key, summary);
  }

  #remember(key: string, summary: string): void {
    this.#entries.delete(key);
    this.#entries.set(key, summary);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
