import { readFileSync } from 'node:fs';
import type { TiktokenRanks } from './read-tiktoken-ranks.js';

// 'BTK2' little-endian: a table of this layout (BTK1 held text tokens only, keyed by UTF-16).
const MAGIC = 0x324b5442;
// Header: magic, tokens, slots, bytes.
const HEADER_BYTES = 4 * 4;

/**
 * The o200k_base vocabulary as a ready-made hash table keyed by each token's bytes: typed arrays
 * laid out in one file, usable as soon as the file is read (~3 ms). Building the same lookup as a
 * `Map` of 200,000 strings (what gpt-tokenizer does at start) cost a fresh `baton mcp` ~135 ms of
 * CPU, so the build writes this table once (scripts/bundle-cli.mjs) and every process reads it.
 *
 * A token's id is its rank: the table is indexed by rank, every token of the vocabulary in it,
 * byte tokens (not valid UTF-8 on their own) included, so a byte-pair merge never needs anything
 * else. Layout (little-endian, sections 4-byte aligned, the bytes last): header; `slots` (open
 * addressing, FNV-1a of the token's bytes, linear probing; rank + 1, 0 = empty); `starts` (rank
 * -> first byte, tokens + 1 of them); `bytes` (every token's bytes, back to back).
 */
export class O200kTable {
  private readonly mask: number;

  private constructor(
    private readonly slots: Int32Array,
    private readonly starts: Uint32Array,
    private readonly bytes: Uint8Array,
  ) {
    this.mask = slots.length - 1;
  }

  /** Number of tokens, so the largest id is `size - 1`. */
  get size(): number {
    return this.starts.length - 1;
  }

  /** The table held in `bytes` (as o200kTableBytes wrote it), or undefined when it is not one. */
  static fromBytes(bytes: Uint8Array): O200kTable | undefined {
    if (bytes.byteLength < HEADER_BYTES) return undefined;
    // Typed views need aligned offsets; a file read whole is (a fresh allocation), a slice may not be.
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    const { buffer, byteOffset } = aligned;
    const words = new DataView(buffer, byteOffset, aligned.byteLength);
    const [magic, tokens, slotCount, byteCount] = [0, 1, 2, 3].map((i) => words.getUint32(4 * i, true)) as [number, number, number, number];
    if (magic !== MAGIC || slotCount === 0 || (slotCount & (slotCount - 1)) !== 0) return undefined;
    if (HEADER_BYTES + slotCount * 4 + (tokens + 1) * 4 + byteCount !== aligned.byteLength) return undefined;
    const slotsAt = byteOffset + HEADER_BYTES;
    const startsAt = slotsAt + slotCount * 4;
    const bytesAt = startsAt + (tokens + 1) * 4;
    return new O200kTable(
      new Int32Array(buffer, slotsAt, slotCount),
      new Uint32Array(buffer, startsAt, tokens + 1),
      new Uint8Array(buffer, bytesAt, byteCount),
    );
  }

  /** The table of a vocabulary given as its tokens' bytes by rank (built in memory). */
  static fromRanks(ranks: TiktokenRanks): O200kTable {
    return O200kTable.fromBytes(o200kTableBytes(ranks)) as O200kTable;
  }

  /** The table file at `file`; undefined when it is absent, unreadable or not a table. */
  static read(file: URL): O200kTable | undefined {
    try {
      return O200kTable.fromBytes(readFileSync(file));
    } catch {
      return undefined;
    }
  }

  /** The token id of `piece[start, end)` when those bytes are one token, else undefined. */
  rankOf(piece: Uint8Array, start: number, end: number): number | undefined {
    const { slots, starts, bytes, mask } = this;
    const length = end - start;
    let slot = hashBytes(piece, start, end) & mask;
    for (;;) {
      const rank = (slots[slot] as number) - 1;
      if (rank < 0) return undefined;
      const first = starts[rank] as number;
      if ((starts[rank + 1] as number) - first === length) {
        let k = 0;
        while (k < length && bytes[first + k] === piece[start + k]) k++;
        if (k === length) return rank;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** The bytes of token `id`; undefined for an id outside the vocabulary. */
  bytesOf(id: number): Uint8Array | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.size) return undefined;
    return this.bytes.subarray(this.starts[id], this.starts[id + 1]);
  }
}

/** The table file's bytes for a vocabulary given as its tokens' bytes by rank (read-tiktoken-ranks.ts). */
export function o200kTableBytes({ bytes, starts }: TiktokenRanks): Uint8Array {
  const tokens = starts.length - 1;
  // Load factor under 0.4: probes stay short.
  let slotCount = 1;
  while (slotCount < tokens * 2.5) slotCount *= 2;
  const out = new Uint8Array(HEADER_BYTES + slotCount * 4 + starts.byteLength + bytes.length);
  const header = new DataView(out.buffer);
  [MAGIC, tokens, slotCount, bytes.length].forEach((value, i) => header.setUint32(4 * i, value, true));
  const slots = new Int32Array(out.buffer, HEADER_BYTES, slotCount);
  new Uint32Array(out.buffer, HEADER_BYTES + slotCount * 4, starts.length).set(starts);
  out.set(bytes, HEADER_BYTES + slotCount * 4 + starts.byteLength);
  for (let rank = 0; rank < tokens; rank++) {
    let slot = hashBytes(bytes, starts[rank] as number, starts[rank + 1] as number) & (slotCount - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (slotCount - 1);
    slots[slot] = rank + 1;
  }
  return out;
}

/** FNV-1a over bytes (the table's own hash, written and read here only). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}
