import type { Redis } from 'ioredis';
import { BatonError } from '../../errors/index.js';
import { decodeCursor, encodeCursor } from '../defaults.js';
import type { Page } from '../types.js';

/** A zset member with its score. */
export interface ZEntry {
  member: string;
  score: number;
}

export interface WalkOptions {
  /** 'asc' walks (score, member) upwards, 'desc' downwards: the zset's own order either way. */
  order: 'asc' | 'desc';
  /** Start strictly after this entry (a cursor). */
  after?: ZEntry;
  /** Lowest score to include. @default no bound */
  min?: number;
  /** Entries fetched per call. */
  batch: number;
}

/**
 * Walks a zset in (score, member) order in batches, starting strictly after a cursor entry.
 * Ties in score are ordered by member, exactly as Redis orders them, so a cursor of
 * (score, member) never skips or repeats an entry even when many share a timestamp. Each batch
 * re-anchors on its last entry, so walking a million entries never pays for a growing offset.
 */
export async function* walkZset(redis: Redis, key: string, options: WalkOptions): AsyncGenerator<ZEntry[]> {
  const { order, min, batch } = options;
  const low = min === undefined ? '-inf' : String(min);
  let after = options.after;
  for (;;) {
    if (after && (min === undefined || after.score >= min)) yield* restOfScore(redis, key, order, after, batch);
    const flat =
      order === 'asc'
        ? await redis.zrangebyscore(key, after ? `(${after.score}` : low, '+inf', 'WITHSCORES', 'LIMIT', 0, batch)
        : await redis.zrevrangebyscore(key, after ? `(${after.score}` : '+inf', low, 'WITHSCORES', 'LIMIT', 0, batch);
    const entries = pairs(flat);
    if (entries.length > 0) yield entries;
    if (entries.length < batch) return;
    after = entries[entries.length - 1];
  }
}

/** The entries sharing the cursor's score that come after it: there only member order decides. */
async function* restOfScore(redis: Redis, key: string, order: 'asc' | 'desc', after: ZEntry, batch: number): AsyncGenerator<ZEntry[]> {
  const s = String(after.score);
  const sign = order === 'asc' ? 1 : -1;
  for (let offset = 0; ; offset += batch) {
    const flat =
      order === 'asc'
        ? await redis.zrangebyscore(key, s, s, 'WITHSCORES', 'LIMIT', offset, batch)
        : await redis.zrevrangebyscore(key, s, s, 'WITHSCORES', 'LIMIT', offset, batch);
    const entries = pairs(flat).filter((e) => sign * compareMembers(e.member, after.member) > 0);
    if (entries.length > 0) yield entries;
    if (flat.length < batch * 2) return;
  }
}

export interface CollectPageOptions<T> {
  limit: number;
  /** Loads the items of a batch of members (undefined for members whose row vanished). */
  load: (members: string[]) => Promise<(T | undefined)[]>;
  /** Extra filter applied after loading. @default keeps everything */
  accept?: (item: T) => boolean;
  /** The (score, member) of an item, for the next cursor. */
  entryOf: (item: T) => ZEntry;
}

/** Fills one page from a walk, loading each batch in one round trip. */
export async function collectPage<T>(walk: AsyncGenerator<ZEntry[]>, options: CollectPageOptions<T>): Promise<Page<T>> {
  const items: T[] = [];
  for await (const entries of walk) {
    const loaded = await options.load(entries.map((e) => e.member));
    for (const item of loaded) {
      if (item === undefined || (options.accept && !options.accept(item))) continue;
      items.push(item);
      if (items.length > options.limit) {
        await walk.return(undefined);
        const page = items.slice(0, options.limit);
        const last = options.entryOf(page[page.length - 1] as T);
        return { items: page, nextCursor: encodeCursor([last.score, last.member]) };
      }
    }
  }
  return { items };
}

/** Decodes a (score, member) cursor made by collectPage. */
export function cursorEntry(cursor: string | undefined): ZEntry | undefined {
  if (cursor === undefined) return undefined;
  const [score, member] = decodeCursor(cursor);
  if (typeof score !== 'number' || !Number.isFinite(score) || typeof member !== 'string') {
    throw new BatonError('INPUT_INVALID', `Invalid cursor: ${JSON.stringify(cursor)}`, { details: { field: 'cursor', value: cursor } });
  }
  return { score, member };
}

function pairs(flat: string[]): ZEntry[] {
  const out: ZEntry[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ member: flat[i] as string, score: Number(flat[i + 1]) });
  return out;
}

/** Orders members the way Redis does: by their UTF-8 bytes. */
export function compareMembers(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
