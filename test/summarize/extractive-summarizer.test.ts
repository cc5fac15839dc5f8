import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer, summarizeExtractive, summaryTargetTokens } from '../../src/summarize/index.js';
import { countTokens } from '../../src/tokens/index.js';

const ANSWER = [
  '## Backhand technique',
  'Rotate your shoulders early so the racket is ready before the ball bounces.',
  'Many players wait too long, and the late preparation ruins the contact point.',
  '',
  '- Use a continental-to-eastern grip change for the one-handed backhand.',
  '- Keep the non-hitting hand on the throat of the racket during the take-back.',
  '',
  'Footwork matters as much as the swing. Step in with the front foot and keep the weight moving forward.',
  'Finish high over the shoulder; a short follow-through makes the ball land short.',
  'Practise the shadow swing ten times before each session, focusing on early rotation and the grip change.',
].join('\n');

describe('summarizeExtractive', () => {
  it('stays within the target and keeps the heading and key recommendations', () => {
    const target = 60;
    const summary = summarizeExtractive(ANSWER, { targetTokens: target });
    expect(countTokens(summary)).toBeLessThanOrEqual(target);
    expect(summary).toContain('## Backhand technique');
    expect(summary).toMatch(/Rotate your shoulders early/);
  });

  it('keeps sentences in their original order', () => {
    const summary = summarizeExtractive(ANSWER, { targetTokens: 80 });
    const positions = summary.split('\n').map((line) => ANSWER.indexOf(line.split(' ').slice(0, 4).join(' ')));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('is deterministic and returns a short text unchanged', () => {
    expect(summarizeExtractive(ANSWER, { targetTokens: 50 })).toBe(summarizeExtractive(ANSWER, { targetTokens: 50 }));
    expect(summarizeExtractive('Short answer.', { targetTokens: 50 })).toBe('Short answer.');
  });

  it('aims at a quarter of the text by default', async () => {
    const summary = await createExtractiveSummarizer().summarize(ANSWER);
    expect(countTokens(summary)).toBeLessThanOrEqual(summaryTargetTokens(ANSWER));
    expect(summaryTargetTokens(ANSWER)).toBe(Math.max(24, Math.ceil(countTokens(ANSWER) * 0.25)));
  });

  it('cuts a single overlong sentence to the target rather than returning nothing', () => {
    const sentence = `${'very '.repeat(200)}long sentence without a break`;
    const summary = summarizeExtractive(sentence, { targetTokens: 30 });
    expect(summary.length).toBeGreaterThan(0);
    expect(countTokens(summary)).toBeLessThanOrEqual(30);
  });
});
