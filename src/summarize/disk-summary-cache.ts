import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getLogger } from '../observability/index.js';
import type { SummaryCache } from './types.js';
import { cacheDirSchema } from './summarizer-options-schema.js';
import { parseInput } from '../util/index.js';

/** @default '.baton/cache/summaries' (relative to the workspace). */
export const DEFAULT_SUMMARY_CACHE_DIR = path.join('.baton', 'cache', 'summaries');

/**
 * Summaries as one file per key (`<dir>/<sha256>.txt`), so they survive between CLI runs. A
 * missing file is a miss; unreadable or unwritable storage is logged and treated as a miss,
 * because a cache must never make a summary fail. Writes go through a temporary file and a
 * rename so a concurrent reader never sees half a summary.
 */
export class DiskSummaryCache implements SummaryCache {
  constructor(readonly dir: string) {
    parseInput(cacheDirSchema, { dir }, { what: 'new DiskSummaryCache' });
  }

  async get(key: string): Promise<string | undefined> {
    try {
      return await readFile(this.#file(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        getLogger().warn({ err: error, dir: this.dir }, 'summary cache read failed');
      }
      return undefined;
    }
  }

  async set(key: string, summary: string): Promise<void> {
    const file = this.#file(key);
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(tmp, summary, 'utf8');
      await rename(tmp, file);
    } catch (error) {
      getLogger().warn({ err: error, dir: this.dir }, 'summary cache write failed');
    }
  }

  #file(key: string): string {
    // Keys are hex digests; anything else must not become a path outside the folder.
    if (!/^[0-9a-f]{16,128}$/.test(key)) throw new TypeError(`summary cache key is not a hex digest: ${key}`);
    return path.join(this.dir, `${key}.txt`);
  }
}
