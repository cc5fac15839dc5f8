import { readFileSync } from 'node:fs';

/** The vocabulary table the bundled command carries beside its chunks (scripts/bundle-cli.mjs). */
export const O200K_TABLE_FILE = 'o200k_base.table.bin';

export type O200kRanks = (string | number[])[];

// 'BTK1' little-endian: a file of this layout.
const MAGIC = 0x314b5442;
const VERSION_BYTES = 16;
// Header: magic, library version (16 bytes), entries, slots, code units, ranks.
const HEADER_BYTES = 4 + VERSION_BYTES + 4 * 4;
const NONE = -1;

/**
 * The o200k_base vocabulary's text tokens as a ready-made hash table: typed arrays laid out in one
 * file, usable as soon as the file is read (3 ms). gpt-tokenizer builds the same lookup as a Map
 * of 200,000 strings from a 2 MB module, which costs a fresh `baton mcp` ~135 ms of CPU on its render
 * thread while the server starts. Text tokens only: the few tokens that are not valid UTF-8 on
 * their own (byte tokens) stay with the library, which fast-o200k.ts falls back to.
 *
 * Layout (little-endian, every section 4-byte aligned): header; `slots` (open addressing, FNV-1a
 * of the token's UTF-16 code units, linear probing; entry + 1, 0 = empty); `starts` (entry ->
 * first code unit, n + 1 of them); `ranks` (entry -> token id); `entryOfRank` (token id -> entry,
 * -1 for byte tokens); `units` (every token's code units, back to back).
 */
export class O200kTable {
  private readonly mask: number;

  private constructor(
    private readonly slots: Int32Array,
    private readonly starts: Uint32Array,
    private readonly ranks: Int32Array,
    private readonly entryOfRank: Int32Array,
    private readonly units: Uint16Array,
  ) {
    this.mask = slots.length - 1;
  }

  /** The table in `bytes` when it was written for `version` of gpt-tokenizer, else undefined. */
  static fromBytes(bytes: Uint8Array, version: string): O200kTable | undefined {
    if (bytes.byteLength < HEADER_BYTES) return undefined;
    // Typed views need aligned offsets; a file read whole is (a fresh allocation), a slice may not be.
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    const { buffer, byteOffset } = aligned;
    const words = new DataView(buffer, byteOffset, aligned.byteLength);
    if (words.getUint32(0, true) !== MAGIC) return undefined;
    const written = new TextDecoder().decode(aligned.subarray(4, 4 + VERSION_BYTES)).replace(/\0+$/, '');
    if (written !== version) return undefined;
    const [entries, slotCount, unitCount, rankCount] = [0, 1, 2, 3].map((i) => words.getUint32(4 + VERSION_BYTES + 4 * i, true)) as [
      number,
      number,
      number,
      number,
    ];
    if (slotCount === 0 || (slotCount & (slotCount - 1)) !== 0) return undefined;
    const sizes = [slotCount * 4, (entries + 1) * 4, entries * 4, rankCount * 4, unitCount * 2];
    if (HEADER_BYTES + sizes.reduce((sum, size) => sum + size, 0) !== aligned.byteLength) return undefined;
    let at = byteOffset + HEADER_BYTES;
    const take = <T>(make: (offset: number) => T, size: number): T => {
      const view = make(at);
      at += size;
      return view;
    };
    return new O200kTable(
      take((o) => new Int32Array(buffer, o, slotCount), sizes[0] as number),
      take((o) => new Uint32Array(buffer, o, entries + 1), sizes[1] as number),
      take((o) => new Int32Array(buffer, o, entries), sizes[2] as number),
      take((o) => new Int32Array(buffer, o, rankCount), sizes[3] as number),
      take((o) => new Uint16Array(buffer, o, unitCount), sizes[4] as number),
    );
  }

  /** The table file at `file` for `version`; undefined when absent, unreadable or for another version. */
  static read(file: URL, version: string): O200kTable | undefined {
    try {
      return O200kTable.fromBytes(readFileSync(file), version);
    } catch {
      return undefined;
    }
  }

  /** The token id of `text.slice(start, end)` when it is one text token, else undefined. */
  rank(text: string, start: number, end: number): number | undefined {
    const { slots, starts, units, mask } = this;
    const length = end - start;
    let slot = hashUnits(text, start, end) & mask;
    for (;;) {
      const entry = (slots[slot] as number) - 1;
      if (entry < 0) return undefined;
      const first = starts[entry] as number;
      if ((starts[entry + 1] as number) - first === length) {
        let k = 0;
        while (k < length && units[first + k] === text.charCodeAt(start + k)) k++;
        if (k === length) return this.ranks[entry];
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * The byte-pair merge of an ASCII piece (one byte per character), as gpt-tokenizer's
   * `bytePairMerge`: repeatedly join the adjacent pair whose joined text has the lowest rank, the
   * leftmost on a tie. Every ASCII byte is a token, so the result is complete.
   */
  mergeAscii(piece: string): number[] {
    const starts: number[] = [];
    const ranks: number[] = [];
    for (let i = 0; i <= piece.length; i++) {
      starts.push(i);
      ranks.push(i < piece.length - 1 ? this.pairRank(piece, i, i + 2) : Number.POSITIVE_INFINITY);
    }
    const rankAt = (i: number): number => {
      const end = starts[i + 2];
      return end === undefined ? Number.POSITIVE_INFINITY : this.pairRank(piece, starts[i] as number, end);
    };
    while (starts.length > 1) {
      let lowest = Number.POSITIVE_INFINITY;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++) {
        if ((ranks[i] as number) < lowest) {
          lowest = ranks[i] as number;
          at = i;
        }
      }
      if (at === -1) break;
      starts.splice(at + 1, 1);
      ranks.splice(at, 1);
      ranks[at] = rankAt(at);
      if (at > 0) ranks[at - 1] = rankAt(at - 1);
    }
    const ids: number[] = [];
    for (let i = 0; i < starts.length - 1; i++) ids.push(this.rank(piece, starts[i] as number, starts[i + 1] as number) as number);
    return ids;
  }

  /** The text of `ids` when every one is a text token, else undefined (byte or special tokens). */
  decode(ids: readonly number[]): string | undefined {
    const { entryOfRank, starts, units } = this;
    let text = '';
    for (const id of ids) {
      const entry = id >= 0 && id < entryOfRank.length ? (entryOfRank[id] as number) : NONE;
      if (entry === NONE) return undefined;
      text += String.fromCharCode(...units.subarray(starts[entry], starts[entry + 1]));
    }
    return text;
  }

  private pairRank(piece: string, start: number, end: number): number {
    return this.rank(piece, start, end) ?? Number.POSITIVE_INFINITY;
  }
}

/**
 * The table file's bytes for gpt-tokenizer's vocabulary `ranks` (text tokens are strings, byte
 * tokens arrays of bytes), marked with the library's `version`. Written at build time.
 */
export function o200kTableBytes(ranks: O200kRanks, version: string): Uint8Array {
  const texts: string[] = [];
  const ids: number[] = [];
  ranks.forEach((token, id) => {
    if (typeof token === 'string') {
      texts.push(token);
      ids.push(id);
    }
  });
  const entries = texts.length;
  // Load factor under 0.4: probes stay short.
  let slotCount = 1;
  while (slotCount < entries * 2.5) slotCount *= 2;
  const unitCount = texts.reduce((sum, text) => sum + text.length, 0);
  const slots = new Int32Array(slotCount);
  const starts = new Uint32Array(entries + 1);
  const entryOfRank = new Int32Array(ranks.length).fill(NONE);
  const units = new Uint16Array(unitCount);
  let unit = 0;
  texts.forEach((text, entry) => {
    starts[entry] = unit;
    for (let k = 0; k < text.length; k++) units[unit++] = text.charCodeAt(k);
    entryOfRank[ids[entry] as number] = entry;
    let slot = hashUnits(text, 0, text.length) & (slotCount - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (slotCount - 1);
    slots[slot] = entry + 1;
  });
  starts[entries] = unit;
  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  view.setUint32(0, MAGIC, true);
  header.set(new TextEncoder().encode(version).subarray(0, VERSION_BYTES), 4);
  [entries, slotCount, unitCount, ranks.length].forEach((value, i) => view.setUint32(4 + VERSION_BYTES + 4 * i, value, true));
  const parts = [header, slots, starts, new Int32Array(ids), entryOfRank, units].map(
    (part) => new Uint8Array(part.buffer, part.byteOffset, part.byteLength),
  );
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** FNV-1a over UTF-16 code units (the table's own hash, written and read here only). */
function hashUnits(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
