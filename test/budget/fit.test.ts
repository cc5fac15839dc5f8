import { describe, expect, it } from 'vitest';
import { DEFAULT_FIT_SLACK, fit, packSections, type Section } from '../../src/budget/index.js';
import { countTokens } from '../../src/tokens/index.js';

/** A render that records the budgets it was asked for. */
function recorder<T>(render: (budget: number) => T): { render: (budget: number) => T; budgets: number[] } {
  const budgets: number[] = [];
  return {
    budgets,
    render: (budget) => {
      budgets.push(budget);
      return render(budget);
    },
  };
}

describe('fit', () => {
  it('renders once when the first budget already fits', () => {
    const { render, budgets } = recorder((budget) => budget);
    const result = fit(render, (n) => ({ tokens: n + 100 }), { caps: { tokens: 4_000 }, budget: 3_850 });
    expect(result).toMatchObject({ fits: true, candidate: 3_850, budget: 3_850, renders: 1 });
    expect(budgets).toEqual([3_850]);
  });

  it('shrinks by the measured overshoot and lands within the slack of the cap in a few renders', () => {
    // A measure that grows faster than the budget, with a fixed part (metadata, a wrapper).
    const measure = (n: number) => ({ tokens: Math.round(n * 1.3) + 180 });
    const { render, budgets } = recorder((budget) => budget);
    const result = fit(render, measure, { caps: { tokens: 4_000 }, budget: 3_850 });
    expect(result.fits).toBe(true);
    expect(result.measured.tokens).toBeLessThanOrEqual(4_000);
    expect(result.measured.tokens).toBeGreaterThanOrEqual(4_000 * (1 - DEFAULT_FIT_SLACK));
    expect(result.renders).toBeLessThanOrEqual(4);
    // Deterministic: the same inputs try the same budgets.
    const again = recorder((budget) => budget);
    fit(again.render, measure, { caps: { tokens: 4_000 }, budget: 3_850 });
    expect(again.budgets).toEqual(budgets);
  });

  it('holds several caps at once, learning how many bytes a budget token makes', () => {
    const measure = (n: number) => ({ tokens: n + 50, bytes: n * 4 + 200 });
    const result = fit((budget) => budget, measure, { caps: { tokens: 10_000, bytes: 20_480 }, budget: 9_850 });
    expect(result.fits).toBe(true);
    expect(result.measured.bytes).toBeLessThanOrEqual(20_480);
    expect(result.measured.bytes).toBeGreaterThan(20_480 * (1 - DEFAULT_FIT_SLACK));
    expect(result.renders).toBeLessThanOrEqual(4);
  });

  it('starts the next shrink from what a candidate really spent, not from its budget', () => {
    // The content is 3,000 tokens: any budget above renders the same, over the cap.
    const measure = (n: number) => ({ tokens: Math.min(n, 3_000) * 1.5 });
    const withSpent = fit(
      (budget) => Math.min(budget, 3_000),
      (n) => measure(n),
      {
        caps: { tokens: 4_000 },
        budget: 3_850,
        spent: (n) => n,
      },
    );
    const without = fit((budget) => budget, measure, { caps: { tokens: 4_000 }, budget: 3_850 });
    expect(withSpent.fits && without.fits).toBe(true);
    expect(withSpent.renders).toBeLessThan(without.renders);
  });

  it('stops when a larger budget renders the same fit (whole sections: the next size up is the miss already seen)', () => {
    // Sections of 500 tokens, kept whole: 1,500 fits, 2,000 does not.
    const { render, budgets } = recorder((budget) => Math.floor(budget / 500) * 500);
    const result = fit(render, (spent) => ({ tokens: spent * 1.2 }), { caps: { tokens: 2_000 }, budget: 3_000, spent: (n) => n });
    expect(result).toMatchObject({ fits: true, candidate: 1_500 });
    expect(budgets).toHaveLength(3);
  });

  it('never returns a candidate over the cap when a smaller budget fits, even past a plateau', () => {
    // Everything from 11 up renders the same oversized shape; only 10 and below fit.
    const measure = (n: number) => ({ tokens: n <= 10 ? n * 10 : 5_000 });
    const result = fit((budget) => budget, measure, { caps: { tokens: 100 }, budget: 1_000 });
    expect(result.fits).toBe(true);
    expect(result.measured.tokens).toBeLessThanOrEqual(100);
  });

  it('says so, with the smallest render and the caps it breaks, when even the smallest budget does not fit', () => {
    const { render, budgets } = recorder((budget) => budget);
    const result = fit(render, (n) => ({ tokens: n + 500, chars: 10 }), { caps: { tokens: 400, chars: 100 }, budget: 350, minBudget: 20 });
    expect(result.fits).toBe(false);
    if (result.fits) return;
    expect(result.candidate).toBe(20);
    expect(result.over).toEqual(['tokens']);
    expect(Math.min(...budgets)).toBe(20);
  });

  it('renders at most maxRenders times, the last at the smallest budget when nothing fitted yet', () => {
    const { render, budgets } = recorder((budget) => budget);
    const result = fit(render, (n) => ({ tokens: 50 * Math.sqrt(n) }), { caps: { tokens: 100 }, budget: 10_000, maxRenders: 2 });
    expect(budgets).toEqual([10_000, 1]);
    expect(result).toMatchObject({ fits: true, budget: 1 });
  });

  it('treats a broken measure (NaN) as over the cap', () => {
    const result = fit(
      (budget) => budget,
      (n) => ({ tokens: n > 100 ? Number.NaN : n }),
      { caps: { tokens: 1_000 }, budget: 900 },
    );
    expect(result).toMatchObject({ fits: true });
    expect(result.budget).toBeLessThanOrEqual(100);
  });

  it('fits packed sections to a character cap (a client that cuts by characters)', () => {
    const sections: Section[] = Array.from({ length: 30 }, (_, i) => ({
      id: `s${i}`,
      text: `- item ${i}: ${'a line about what happened, '.repeat(8)}`,
      priority: 100 - i,
      overflow: 'drop',
    }));
    const result = fit(
      (budget) => packSections(sections, { budget }).text,
      (text) => ({ chars: text.length, tokens: countTokens(text) }),
      { caps: { chars: 2_000, tokens: 1_000 }, budget: 1_000 },
    );
    expect(result.fits).toBe(true);
    expect(result.candidate.length).toBeLessThanOrEqual(2_000);
    expect(result.candidate).toContain('- item 0:');
  });
});
