import { describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { packSections, type Section } from '../../src/budget/index.js';
import { countTokens } from '../../src/tokens/index.js';

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} line ${i}`).join('\n');

describe('packSections', () => {
  it('keeps everything, in input order, when it fits', () => {
    const result = packSections(
      [
        { id: 'a', text: 'alpha', priority: 1 },
        { id: 'b', text: 'beta', priority: 9 },
      ],
      { budget: 100 },
    );
    expect(result.text).toBe('alpha\n\nbeta');
    expect(result.dropped).toEqual([]);
    expect(result.tokens).toBe(countTokens('alpha\n\nbeta'));
  });

  it('never exceeds the budget, measured on the joined text', () => {
    const sections: Section[] = [
      { id: 'goal', text: 'Fix the parser bug in src/parse.ts', priority: 100, required: true },
      { id: 'old', text: lines('old', 400), priority: 1, overflow: 'trim-head' },
      { id: 'mid', text: lines('mid', 400), priority: 5, overflow: 'head-tail' },
      { id: 'new', text: lines('new', 400), priority: 10 },
    ];
    for (const budget of [64, 200, 500, 1500, 4000]) {
      const result = packSections(sections, { budget });
      expect(countTokens(result.text)).toBeLessThanOrEqual(budget);
      expect(result.tokens).toBe(countTokens(result.text));
      expect(result.text).toContain('Fix the parser bug');
    }
  });

  it('shrinks the lowest priority first', () => {
    const result = packSections(
      [
        { id: 'low', text: lines('low', 200), priority: 1 },
        { id: 'high', text: lines('high', 50), priority: 10 },
      ],
      { budget: 400 },
    );
    expect(result.sections.find((s) => s.id === 'high')?.action).toBe('kept');
    expect(result.trimmed.concat(result.dropped)).toContain('low');
  });

  it('drops a section that would fall below its minimum instead of keeping a stub', () => {
    const result = packSections(
      [
        { id: 'keep', text: lines('keep', 30), priority: 10 },
        { id: 'tiny', text: lines('tiny', 30), priority: 1, minTokens: 200 },
      ],
      { budget: countTokens(lines('keep', 30)) + 20 },
    );
    expect(result.dropped).toEqual(['tiny']);
  });

  it('trim-head keeps the tail, trim-tail keeps the head, head-tail keeps both with a marker', () => {
    const text = lines('x', 300);
    const head = packSections([{ id: 's', text, priority: 1, overflow: 'trim-tail' }], { budget: 60 });
    const tail = packSections([{ id: 's', text, priority: 1, overflow: 'trim-head' }], { budget: 60 });
    const both = packSections([{ id: 's', text, priority: 1, overflow: 'head-tail' }], { budget: 60 });
    expect(head.text.startsWith('x line 0')).toBe(true);
    expect(tail.text.endsWith('x line 299')).toBe(true);
    expect(both.text.startsWith('x line 0')).toBe(true);
    expect(both.text.endsWith('x line 299')).toBe(true);
    expect(both.text).toMatch(/\[\.\.\. \d+ tokens omitted \.\.\.\]/);
  });

  it('uses the summary before trimming a summarize section, computing it lazily', () => {
    let calls = 0;
    const section: Section = {
      id: 'hist',
      text: lines('history', 300),
      priority: 1,
      overflow: 'summarize',
      summary: () => {
        calls += 1;
        return 'Summary: 300 history lines about parsing.';
      },
    };
    const fits = packSections([section], { budget: 10_000 });
    expect(calls).toBe(0);
    expect(fits.summarized).toEqual([]);
    const tight = packSections([section], { budget: 50 });
    expect(calls).toBe(1);
    expect(tight.summarized).toEqual(['hist']);
    expect(tight.text).toBe('Summary: 300 history lines about parsing.');
  });

  it('applies a per-section cap before packing', () => {
    const result = packSections([{ id: 'capped', text: lines('c', 500), priority: 1, maxTokens: 100 }], { budget: 10_000 });
    expect(result.sections[0]?.tokens).toBeLessThanOrEqual(100);
    expect(result.trimmed).toEqual(['capped']);
  });

  it('never drops a required section and says so when even it cannot fit', () => {
    const result = packSections(
      [
        { id: 'goal', text: lines('goal', 100), priority: 100, required: true, overflow: 'head-tail' },
        { id: 'extra', text: 'extra', priority: 1 },
      ],
      { budget: 120 },
    );
    expect(result.sections.map((s) => s.id)).toContain('goal');
    expect(result.tokens).toBeLessThanOrEqual(120);
    try {
      packSections([{ id: 'goal', text: lines('goal', 100), priority: 1, required: true, minTokens: 500 }], { budget: 50 });
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(isBatonError(error, 'BUDGET_TOO_SMALL')).toBe(true);
    }
  });

  it('trusts precomputed token counts when exact is off, without re-tokenizing', () => {
    const seen: string[] = [];
    const counter = {
      name: 'spy',
      count: (text: string) => {
        seen.push(text);
        return countTokens(text);
      },
    };
    const result = packSections(
      [
        { id: 'a', text: 'alpha', priority: 1, tokens: 1 },
        { id: 'b', text: 'beta', priority: 2, tokens: 1 },
      ],
      { budget: 60, exact: false, counter },
    );
    expect(result.text).toBe('alpha\n\nbeta');
    expect(seen).not.toContain('alpha');
    expect(seen).not.toContain('alpha\n\nbeta');
  });
});
