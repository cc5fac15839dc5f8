import { describe, expect, it } from 'vitest';
import { type FitPanelContextInput, fitPanelContext, type PriorAnswer } from '../../src/panel/index.js';
import { countTokens } from '../../src/tokens/index.js';

const long = (label: string, sentences: number) =>
  Array.from({ length: sentences }, (_, i) => `${label} point ${i} covers grip, footwork and preparation.`).join(' ');

const answers: PriorAnswer[] = [
  { agent: 'technique', text: long('technique', 40) },
  { agent: 'science', text: long('science', 40) },
];
const base: FitPanelContextInput = {
  system: 'You are the tactics coach.',
  question: 'How do I win more points?',
  answers,
  attribution: 'assistant',
  limitTokens: 100_000,
  reserveTokens: 500,
};
const answerTokens = countTokens(answers[0]!.text);

describe('fitPanelContext', () => {
  it('passes every answer in full when system, answers, question and reserve fit the limit', () => {
    const fit = fitPanelContext(base);
    expect(fit).toMatchObject({ mode: 'full', needsSummaries: false });
    expect(fit.context).toEqual(answers);
  });

  it('counts the reserved answer length: the same context stops fitting when the reserve grows', () => {
    const limitTokens = 2 * answerTokens + 300;
    expect(fitPanelContext({ ...base, limitTokens, reserveTokens: 50 }).mode).toBe('full');
    expect(fitPanelContext({ ...base, limitTokens, reserveTokens: 400 })).toMatchObject({ mode: 'none', needsSummaries: true });
  });

  it('asks for summaries when the answers do not fit, then replaces the oldest first', () => {
    // Room for one answer in full (after the 500-token reserve) plus a short summary.
    const limitTokens = answerTokens + 700;
    expect(fitPanelContext({ ...base, limitTokens }).needsSummaries).toBe(true);
    const summaries = new Map([
      [0, 'technique: grip, footwork.'],
      [1, 'science: load.'],
    ]);
    const fit = fitPanelContext({ ...base, limitTokens, summaries });
    expect(fit.mode).toBe('summaries');
    expect(fit.context).toEqual([{ agent: 'technique', text: 'technique: grip, footwork.', summarized: true }, answers[1]]);
    expect(fit.contextTokens).toBeLessThanOrEqual(fit.budgetTokens);
  });

  it('falls back to no context when a needed summary is missing (its generation failed)', () => {
    const fit = fitPanelContext({ ...base, limitTokens: 600, summaries: new Map([[1, 'science: load.']]) });
    expect(fit).toMatchObject({ mode: 'none', context: [], fallback: 'summary_failed', needsSummaries: false });
  });

  it('falls back to no context when the summaries are still too long', () => {
    const summaries = new Map([
      [0, long('technique', 30)],
      [1, long('science', 30)],
    ]);
    const fit = fitPanelContext({ ...base, limitTokens: answerTokens + 400, summaries });
    expect(fit).toMatchObject({ mode: 'none', context: [], fallback: 'summaries_too_long' });
  });

  it('passes nothing when the system prompt, question and reserve alone fill the window', () => {
    expect(fitPanelContext({ ...base, limitTokens: 400, reserveTokens: 400 })).toMatchObject({ mode: 'none', fallback: 'no_room' });
  });

  it('counts attribution text in user mode', () => {
    const limitTokens = answerTokens + 530;
    const single = { ...base, answers: [answers[0]!], limitTokens, reserveTokens: 500 };
    expect(fitPanelContext(single).mode).toBe('full');
    const attributed = fitPanelContext({ ...single, answers: [{ agent: 'a'.repeat(40), text: answers[0]!.text }], attribution: 'user' });
    expect(attributed.needsSummaries).toBe(true);
  });
});
