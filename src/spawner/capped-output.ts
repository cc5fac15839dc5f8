/** Default cap on bytes kept per stream: half from the head, half from the tail. */
export const DEFAULT_OUTPUT_CAP_BYTES = 1_000_000;

/**
 * Keeps the first and last bytes of a stream of unknown length in bounded memory: a fixed head
 * buffer plus a tail of recent chunks trimmed from the front. 100 MB of output costs at most
 * about `capBytes` plus one chunk.
 */
export class CappedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  /** @param capBytes total bytes kept. @default DEFAULT_OUTPUT_CAP_BYTES */
  constructor(capBytes: number = DEFAULT_OUTPUT_CAP_BYTES) {
    this.headCap = Math.floor(capBytes / 2);
    this.tailCap = capBytes - this.headCap;
  }

  /** Bytes seen so far, kept or not. */
  get totalBytes(): number {
    return this.total;
  }

  /** Whether some bytes were dropped. */
  get truncated(): boolean {
    return this.total > this.headCap + this.tailCap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const take = Math.min(this.headCap - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    // Copy: subarrays would pin the child's whole chunk in memory.
    this.tail.push(Buffer.from(rest.subarray(Math.max(0, rest.length - this.tailCap))));
    this.tailBytes += Math.min(rest.length, this.tailCap);
    while (this.tailBytes > this.tailCap && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  /** Head and tail as text, with a marker saying how much was left out between them. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    if (this.tail.length === 0) return head;
    const tail = Buffer.concat(this.tail).toString('utf8');
    const omitted = this.total - this.headBytes - this.tailBytes;
    if (omitted <= 0) return Buffer.concat([...this.head, ...this.tail]).toString('utf8');
    return `${head}\n… [${omitted} bytes of output omitted] …\n${tail}`;
  }
}
