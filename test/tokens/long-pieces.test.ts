/**
 * A piece of o200k_base's split can be as long as the text (a separator line, a progress bar, a run
 * of spaces): issue 34 measured 4 s for 64 KB of `-` and no answer in 30 s from packSections on
 * 20 MB of one letter. The work of counting is bounded here by the byte-pair merge's own step
 * counter, not by a clock (speed is measured in `npm run bench -- tokens`).
 */
import { describe, expect, it } from 'vitest';
import { packSections, shrinkText } from '../../src/budget/index.js';
import { bytePairMerge, mergeWork } from '../../src/tokens/byte-pair-merge.js';
import { MAX_MERGE_CHARS } from '../../src/tokens/encode-o200k.js';
import { o200kTable } from '../../src/tokens/o200k-vocabulary.js';
import { countTokens, o200kCounter, truncateToTokens } from '../../src/tokens/index.js';

const MEGABYTE = 1 << 20;
/** ASCII punctuation, letters, digits, whitespace, line breaks; Latin-1, CJK, an astral emoji, a combining mark, a non-breaking space. */
const CHARACTERS = ['-', '=', 'a', 'A', '7', ' ', '\n', '\t', 'é', '中', '😀', '\u0301', '\u00a0'];
/**
 * A bound on the merge's heap steps for a megabyte: about 20 per byte of the (at most two)
 * distinct chunks a run of one character is merged in. The quadratic scan the merge replaced
 * needed ~10^11 steps for a megabyte of `-`.
 */
const MAX_STEPS_PER_MEGABYTE = 2_000_000;

/** Runs `fn` and returns the merge's heap steps it took. */
function work(fn: () => unknown): number {
  const before = mergeWork.steps;
  fn();
  return mergeWork.steps - before;
}

/** The tiktoken merge of the whole text as one piece, with no chunks (the reference). */
function wholePieceCount(text: string): number {
  const table = o200kTable();
  const bytes = new TextEncoder().encode(text);
  return bytePairMerge(bytes, bytes.length, (b, from, to) => table.rankOf(b, from, to)).length;
}

describe('a long piece', () => {
  it.each(CHARACTERS)('counts a megabyte of %j with bounded merge work', (character) => {
    const text = character.repeat(MEGABYTE / character.length);
    let count = 0;
    expect(work(() => (count = countTokens(text)))).toBeLessThan(MAX_STEPS_PER_MEGABYTE);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(text.length);
  });

  it('merges a piece longer than one chunk in O(n log n) heap steps, not a scan per merge', () => {
    const text = 'ab'.repeat(MAX_MERGE_CHARS / 2);
    const bytes = new TextEncoder().encode(text);
    const table = o200kTable();
    const steps = work(() => bytePairMerge(bytes, bytes.length, (b, from, to) => table.rankOf(b, from, to)));
    expect(steps).toBeLessThan(bytes.length * Math.log2(bytes.length) * 2);
  });

  it.each(['-', '=', 'a', ' ', '\n', 'é', '中', '😀'])(
    'counts a run of %j longer than a chunk as tiktoken merges the whole piece',
    (character) => {
      const text = character.repeat(Math.ceil((2.5 * MAX_MERGE_CHARS) / character.length));
      expect(countTokens(text)).toBe(wholePieceCount(text));
    },
  );

  it('cuts a megabyte of one character to the head or the tail within the limit, with bounded work', () => {
    for (const character of ['-', 'a', '中']) {
      const text = character.repeat(MEGABYTE);
      for (const keep of ['head', 'tail'] as const) {
        let out = '';
        expect(work(() => (out = truncateToTokens(text, 1000, keep)))).toBeLessThan(MAX_STEPS_PER_MEGABYTE);
        const count = countTokens(out);
        expect(count).toBeLessThanOrEqual(1000);
        expect(count).toBeGreaterThan(990);
      }
    }
  });

  it('packs and shrinks two megabytes of one letter within the budget, with bounded work', () => {
    const text = 'x'.repeat(2 * MEGABYTE);
    let packed: ReturnType<typeof packSections> | undefined;
    const steps = work(() => {
      packed = packSections(
        [
          { id: 'log', text, priority: 1, overflow: 'head-tail' },
          { id: 'task', text: 'Fix the login bug.', priority: 9, required: true },
        ],
        { budget: 2000 },
      );
    });
    expect(steps).toBeLessThan(2 * MAX_STEPS_PER_MEGABYTE);
    expect(packed?.tokens).toBeLessThanOrEqual(2000);
    expect(packed?.sections.map((section) => section.id)).toEqual(['log', 'task']);
    for (const mode of ['trim-head', 'trim-tail', 'head-tail'] as const) {
      let out = '';
      expect(work(() => (out = shrinkText(text, 500, mode, o200kCounter)))).toBeLessThan(2 * MAX_STEPS_PER_MEGABYTE);
      expect(countTokens(out)).toBeLessThanOrEqual(500);
    }
  });
});
