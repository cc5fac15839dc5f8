/** @default 15_000: a cached result is re-rendered at least this often (see ResultCache). */
export const DEFAULT_RESULT_MAX_AGE_MS = 15_000;
/** @default 256 */
export const DEFAULT_RESULT_MAX_ENTRIES = 256;

export interface ResultCacheOptions {
  /** @default DEFAULT_RESULT_MAX_AGE_MS */
  maxAgeMs?: number;
}

/** How a lookup was answered: from a stored result, by joining a computation under way, or by computing. */
export type ResultCacheStatus = 'hit' | 'shared' | 'miss';

interface Entry<T> {
  value: T;
  storedAt: number;
}

/**
 * Rendered refresh results shared by every session of a process, under a key that names every
 * input of the render (workspace, options, git state, ledger version, staleness warnings; built
 * by refresh-context.ts). Concurrent misses on one key share one computation (single flight);
 * a failed computation is not stored. Entries also expire after `maxAgeMs`, which bounds what the
 * key cannot see: unstaged edits inside the git cache's lifetime, task and workflow files, and
 * the "n minutes ago" ages in the text.
 */
export class ResultCache<T> {
  /** Lookups answered from a stored result, and lookups that computed (for tests). */
  hits = 0;
  misses = 0;
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Promise<T>>();
  private readonly maxAgeMs: number;

  constructor(options: ResultCacheOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_RESULT_MAX_AGE_MS;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  async getOrCompute(key: string, compute: () => Promise<T>): Promise<{ value: T; status: ResultCacheStatus }> {
    const entry = this.entries.get(key);
    if (entry && Date.now() - entry.storedAt < this.maxAgeMs) {
      this.hits += 1;
      return { value: entry.value, status: 'hit' };
    }
    if (entry) this.entries.delete(key);
    const running = this.pending.get(key);
    if (running) return { value: await running, status: 'shared' };
    this.misses += 1;
    const computing = compute();
    this.pending.set(key, computing);
    try {
      const value = await computing;
      this.store(key, value);
      return { value, status: 'miss' };
    } finally {
      this.pending.delete(key);
    }
  }

  private store(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: Date.now() });
    while (this.entries.size > DEFAULT_RESULT_MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
