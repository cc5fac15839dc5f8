/** Looks up the token id of `bytes[start, end)`, undefined when those bytes are not one token. */
export type RankOf = (bytes: Uint8Array, start: number, end: number) => number | undefined;

/** Rank of a pair that is no token: above every real rank, so it never wins. */
const NONE = 0x7fffffff;

/**
 * Work done by bytePairMerge since the process started, in heap steps (one per level a part
 * moves up or down the heap): tests bound the work of a long piece with it rather than with a
 * clock (the merge is O(n log n) in the piece's length; the scan it replaced was O(n²)).
 */
export const mergeWork = { steps: 0 };

/**
 * The byte-pair encoding of one piece (`bytes[0, length)`) that is not a token itself, as tiktoken
 * defines it: start from single bytes and repeatedly join the adjacent pair whose joined bytes
 * have the lowest rank (the leftmost on a tie) until no adjacent pair is a token. Every single
 * byte is a token of a byte-level vocabulary such as o200k_base, so the result is complete.
 *
 * The parts are a linked list by start offset and the joinable pairs a min-heap keyed by (rank,
 * start), so each join costs O(log n): a piece of one repeated character (a separator line, a
 * progress bar: one piece of any length) is merged in O(n log n). Scanning every pair for the
 * lowest at each join, as tiktoken's reference does, took 4 s for 64 KB of `-` (issue 34).
 */
export function bytePairMerge(bytes: Uint8Array, length: number, rankOf: RankOf): number[] {
  const merge = new Merge(bytes, length, rankOf);
  merge.run();
  return merge.ids();
}

class Merge {
  /** next[i]: where the part starting at i ends (the next part's start); `length` for the last. */
  private readonly next: Int32Array;
  /** prev[i]: the start of the part before the one at i; -1 for the first. */
  private readonly prev: Int32Array;
  /** rank[i]: the rank of the part at i joined with the next part; NONE when not a token. */
  private readonly rank: Int32Array;
  /** The heap of part starts whose pair is a token, lowest (rank, start) first. */
  private readonly heap: Int32Array;
  /** slot[i]: where the part at i sits in the heap; -1 when it is not there. */
  private readonly slot: Int32Array;
  private size = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly length: number,
    private readonly rankOf: RankOf,
  ) {
    this.next = new Int32Array(length);
    this.prev = new Int32Array(length);
    this.rank = new Int32Array(length);
    this.heap = new Int32Array(length);
    this.slot = new Int32Array(length).fill(-1);
    for (let i = 0; i < length; i++) {
      this.next[i] = i + 1;
      this.prev[i] = i - 1;
      this.rank[i] = i + 2 <= length ? (rankOf(bytes, i, i + 2) ?? NONE) : NONE;
      if (this.rank[i] !== NONE) {
        this.slot[i] = this.size;
        this.heap[this.size++] = i;
      }
    }
    // Pairs were added left to right: the heap order holds once every inner slot sinks into place.
    for (let k = (this.size >> 1) - 1; k >= 0; k--) this.siftDown(k);
  }

  /** Joins pairs, the lowest rank (then the leftmost) first, until none is a token. */
  run(): void {
    const { next, prev, length } = this;
    while (this.size > 0) {
      const i = this.heap[0] as number;
      const j = next[i] as number;
      const k = next[j] as number;
      next[i] = k;
      if (k < length) prev[k] = i;
      this.setRank(j, NONE);
      this.setRank(i, k < length ? this.pairRank(i, next[k] as number) : NONE);
      const p = prev[i] as number;
      if (p >= 0) this.setRank(p, this.pairRank(p, k));
    }
  }

  /** The ids of the parts, left to right. */
  ids(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.length; i = this.next[i] as number) {
      const id = this.rankOf(this.bytes, i, this.next[i] as number);
      if (id === undefined) throw new Error(`byte ${this.bytes[i]} is not a token of this vocabulary`);
      out.push(id);
    }
    return out;
  }

  private pairRank(start: number, end: number): number {
    return this.rankOf(this.bytes, start, end) ?? NONE;
  }

  /** Gives the part at `i` a new pair rank, moving it in (or out of) the heap. */
  private setRank(i: number, rank: number): void {
    this.rank[i] = rank;
    const at = this.slot[i] as number;
    if (rank === NONE) {
      if (at >= 0) this.removeAt(at);
    } else if (at < 0) {
      this.slot[i] = this.size;
      this.heap[this.size++] = i;
      this.siftUp(this.size - 1);
    } else {
      this.siftUp(at);
      this.siftDown(this.slot[i] as number);
    }
  }

  private removeAt(at: number): void {
    const gone = this.heap[at] as number;
    this.slot[gone] = -1;
    this.size -= 1;
    if (at === this.size) return;
    const last = this.heap[this.size] as number;
    this.heap[at] = last;
    this.slot[last] = at;
    this.siftUp(at);
    this.siftDown(this.slot[last]);
  }

  private before(a: number, b: number): boolean {
    const ra = this.rank[a] as number;
    const rb = this.rank[b] as number;
    return ra < rb || (ra === rb && a < b);
  }

  private siftUp(at: number): void {
    const { heap, slot } = this;
    const part = heap[at] as number;
    while (at > 0) {
      const up = (at - 1) >> 1;
      const parent = heap[up] as number;
      if (!this.before(part, parent)) break;
      heap[at] = parent;
      slot[parent] = at;
      at = up;
      mergeWork.steps += 1;
    }
    heap[at] = part;
    slot[part] = at;
  }

  private siftDown(at: number): void {
    const { heap, slot, size } = this;
    const part = heap[at] as number;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && this.before(heap[child + 1] as number, heap[child] as number)) child += 1;
      const lower = heap[child] as number;
      if (!this.before(lower, part)) break;
      heap[at] = lower;
      slot[lower] = at;
      at = child;
      mergeWork.steps += 1;
    }
    heap[at] = part;
    slot[part] = at;
  }
}
