import { type GitLocation, locateGit } from '../workspace/light.js';
import { readGitKey } from './git-key.js';
import { type ReadGitStateOptions, readGitState } from './read-git-state.js';
import type { GitState } from './git-types.js';

/** @default 60_000: seed 002 §6.1 caches git status and commits for 60 seconds. */
export const DEFAULT_GIT_CACHE_TTL_MS = 60_000;

export interface GitCacheOptions {
  /** @default DEFAULT_GIT_CACHE_TTL_MS */
  ttlMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** Entries kept at most (one per workspace and option set). @default 64 */
  maxEntries?: number;
}

export interface GitLookup {
  state: GitState;
  hit: boolean;
  /** Cache key: HEAD and index state. */
  key: string;
}

type Entry = Omit<GitLookup, 'hit'> & { storedAt: number };

/**
 * Caches `readGitState` per workspace and option set, keyed by HEAD and the index's mtime/size and
 * valid for `ttlMs`: a commit, checkout or `git add` misses at once; edits to unstaged files show
 * up once the entry expires. Counts hits and misses for `metadata.cache`.
 */
export class GitCache {
  hits = 0;
  misses = 0;
  private readonly entries = new Map<string, Entry>();
  // Reads under way, by slot: a second caller for the same slot and key shares the first's git run.
  private readonly pending = new Map<string, { key: string; lookup: Promise<GitLookup> }>();
  private readonly locations = new Map<string, GitLocation | null>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: GitCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_GIT_CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 64;
  }

  /** Finds the repository of `workspace` (remembered). Undefined when it is not in one. */
  async locate(workspace: string): Promise<GitLocation | undefined> {
    if (!this.locations.has(workspace)) this.locations.set(workspace, locateGit(workspace) ?? null);
    return this.locations.get(workspace) ?? undefined;
  }

  /**
   * Returns cached state when HEAD and index are unchanged and the entry is fresh, unless `fresh`
   * asks to read git now (the new state then replaces the entry); else reads git.
   */
  async get(workspace: string, lookupOptions: ReadGitStateOptions & { fresh?: boolean } = {}): Promise<GitLookup> {
    const { fresh = false, ...options } = lookupOptions;
    const location = await this.locate(workspace);
    if (!location) throw new Error('not a git repository (no .git found in the workspace or above it)');
    const key = await readGitKey(location);
    const slot = this.slotOf(workspace, options);
    const entry = this.entries.get(slot);
    if (!fresh && entry && entry.key === key && this.now() - entry.storedAt < this.ttlMs) {
      this.hits += 1;
      return { state: entry.state, hit: true, key };
    }
    const running = this.pending.get(slot);
    if (!fresh && running && running.key === key) {
      this.hits += 1;
      return { ...(await running.lookup), hit: true };
    }
    this.misses += 1;
    const lookup = this.read(location, slot, workspace, options);
    this.pending.set(slot, { key, lookup });
    try {
      return await lookup;
    } finally {
      if (this.pending.get(slot)?.lookup === lookup) this.pending.delete(slot);
    }
  }

  private slotOf(workspace: string, options: ReadGitStateOptions): string {
    return `${workspace}\0${options.commitLimit ?? 5}\0${options.includeDiff ? 'diff' : ''}`;
  }

  private async read(location: GitLocation, slot: string, workspace: string, options: ReadGitStateOptions): Promise<GitLookup> {
    const state = await readGitState(workspace, options);
    // Key read again after git ran: `git status` may refresh the index and change its mtime.
    const after = await readGitKey(location);
    this.entries.delete(slot);
    this.entries.set(slot, { key: after, state, storedAt: this.now() });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return { state, hit: false, key: after };
  }

  /** Forgets every entry (the counters stay). */
  clear(): void {
    this.entries.clear();
    this.pending.clear();
    this.locations.clear();
  }
}
