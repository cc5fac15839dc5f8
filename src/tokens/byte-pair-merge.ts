/** Looks up the token id of `bytes[start, end)`, undefined when those bytes are not one token. */
export type RankOf = (bytes: Uint8Array, start: number, end: number) => number | undefined;

/**
 * The byte-pair encoding of one piece (`bytes[0, length)`) that is not a token itself, as tiktoken
 * defines it: start from single bytes and repeatedly join the adjacent pair whose joined bytes
 * have the lowest rank (the leftmost on a tie) until no adjacent pair is a token. Every single
 * byte is a token of a byte-level vocabulary such as o200k_base, so the result is complete.
 */
export function bytePairMerge(bytes: Uint8Array, length: number, rankOf: RankOf): number[] {
  // starts[i] is where part i begins; ranks[i] is the rank of parts i and i+1 joined.
  const starts: number[] = [];
  const ranks: number[] = [];
  const pairRank = (i: number): number => {
    const end = starts[i + 2];
    return end === undefined ? Infinity : (rankOf(bytes, starts[i] as number, end) ?? Infinity);
  };
  for (let i = 0; i <= length; i++) starts.push(i);
  for (let i = 0; i < length; i++) ranks.push(pairRank(i));
  for (;;) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < ranks.length; i++) {
      if ((ranks[i] as number) < lowest) {
        lowest = ranks[i] as number;
        at = i;
      }
    }
    if (at === -1) break;
    starts.splice(at + 1, 1);
    ranks.splice(at + 1, 1);
    ranks[at] = pairRank(at);
    if (at > 0) ranks[at - 1] = pairRank(at - 1);
  }
  const ids: number[] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const id = rankOf(bytes, starts[i] as number, starts[i + 1] as number);
    if (id === undefined) throw new Error(`byte ${bytes[starts[i] as number]} is not a token of this vocabulary`);
    ids.push(id);
  }
  return ids;
}
