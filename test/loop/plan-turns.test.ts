import { describe, expect, it } from 'vitest';
import { planTurns } from '../../src/loop/index.js';

const COST = { verbatim: 100, summary: 30, masked: 5 } as const;
const cost = (_i: number, level: keyof typeof COST | 'compact') => COST[level === 'compact' ? 'verbatim' : level];

describe('planTurns (compaction plan)', () => {
  it('shows recent turns verbatim, then summaries, then one-line masks when there is room', () => {
    const plan = planTurns(10, { recentTurns: 3, maskAfterTurns: 6, available: 10_000, cost });
    expect(plan).toEqual(['masked', 'masked', 'masked', 'masked', 'summary', 'summary', 'summary', 'verbatim', 'verbatim', 'verbatim']);
  });

  it('masks older summaries before dropping any turn', () => {
    const plan = planTurns(10, { recentTurns: 3, maskAfterTurns: 6, available: 340, cost });
    expect(plan).toEqual(['masked', 'masked', 'masked', 'masked', 'masked', 'masked', 'masked', 'verbatim', 'verbatim', 'verbatim']);
  });

  it('drops the oldest turns next, and demotes recent turns only past the hard limit', () => {
    const dropped = planTurns(10, { recentTurns: 3, maskAfterTurns: 6, available: 310, cost });
    expect(dropped.slice(0, 3)).toEqual(['dropped', 'dropped', 'dropped']);
    expect(dropped.slice(-3)).toEqual(['verbatim', 'verbatim', 'verbatim']);
    const tight = planTurns(10, { recentTurns: 3, maskAfterTurns: 6, available: 150, hardAvailable: 150, cost });
    expect(tight.at(-1)).toBe('verbatim');
    expect(tight.slice(0, 7).every((l) => l === 'dropped')).toBe(true);
    expect(tight.slice(7, 9)).toEqual(['masked', 'summary']);
  });

  it('keeps no tool output verbatim when asked (retry 2)', () => {
    expect(planTurns(2, { recentTurns: 1, maskAfterTurns: 6, available: 10_000, cost, noVerbatim: true })).toEqual(['summary', 'summary']);
  });
});
