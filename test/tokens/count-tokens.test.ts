import { describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { contextLimitFor, countTokens, DEFAULT_CONTEXT_LIMIT, truncateToTokens } from '../../src/tokens/index.js';

describe('countTokens', () => {
  it('counts with o200k_base, not a character heuristic', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    // 400 characters of a repeated word compress far below length/4.
    expect(countTokens('abc '.repeat(100))).toBeLessThan(400 / 4 + 5);
  });
});

describe('truncateToTokens', () => {
  const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');

  it('keeps the head within the limit', () => {
    const out = truncateToTokens(text, 50, 'head');
    expect(countTokens(out)).toBeLessThanOrEqual(50);
    expect(out.startsWith('line 0')).toBe(true);
  });

  it('keeps the tail within the limit', () => {
    const out = truncateToTokens(text, 50, 'tail');
    expect(countTokens(out)).toBeLessThanOrEqual(50);
    expect(out.endsWith('line 199')).toBe(true);
  });

  it('never splits a multi-byte character into a replacement char that overflows', () => {
    const emoji = '🙂é漢字'.repeat(300);
    for (const limit of [1, 7, 33, 100]) {
      const out = truncateToTokens(emoji, limit);
      expect(countTokens(out)).toBeLessThanOrEqual(limit);
    }
  });

  it('never leaves a replacement character in its cut or in later cuts (shared decoder state)', () => {
    const exotic = '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ᚠᛇᚻ 🧑🏽‍🚀 Ꙭ '.repeat(20);
    for (let limit = 1; limit < 40; limit++) {
      for (const keep of ['head', 'tail'] as const) {
        const out = truncateToTokens(exotic, limit, keep);
        expect(out).not.toContain('\uFFFD');
        expect(countTokens(out)).toBeLessThanOrEqual(limit);
        expect(keep === 'head' ? exotic.startsWith(out) : exotic.endsWith(out)).toBe(true);
      }
    }
    // An ASCII cut afterwards decodes token ids; it must not inherit bytes from the cuts above.
    expect(truncateToTokens('plain ascii text here', 2)).toBe('plain ascii');
  });

  it('returns the text unchanged when it fits', () => {
    expect(truncateToTokens('short', 10)).toBe('short');
  });
});

/** The error `fn` throws, asserted to be a BatonError('INPUT_INVALID'). */
function inputError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    expect(isBatonError(error, 'INPUT_INVALID'), String(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected a BatonError, got a result');
}

describe('the arguments of countTokens and truncateToTokens (public entry points)', () => {
  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'a number'],
    [['a'], 'an array'],
    [{ text: 'a' }, 'an object'],
  ])('refuse a text of %j, naming the argument, the type expected and the type received', (text, received) => {
    for (const [fn, call] of [
      ['countTokens', () => countTokens(text as unknown as string)],
      ['truncateToTokens', () => truncateToTokens(text as unknown as string, 5)],
    ] as const) {
      const error = inputError(call);
      expect(error.message).toBe(`${fn}: text must be a string; got ${received}`);
      expect((error as { details?: unknown }).details).toMatchObject({ field: 'text' });
    }
  });

  it.each([
    [Number.NaN, 'NaN'],
    [-1, '-1'],
    [-Infinity, '-Infinity'],
    ['10', 'a string'],
    [null, 'null'],
  ])('refuse maxTokens %j instead of returning an empty text', (maxTokens, received) => {
    const error = inputError(() => truncateToTokens('some text', maxTokens as number));
    expect(error.message).toBe(`truncateToTokens: maxTokens must be a number of tokens, 0 or more; got ${received}`);
  });

  it.each(['middle', 'HEAD', 1, null])('refuse keep %j (only "head" and "tail" exist)', (keep) => {
    const error = inputError(() => truncateToTokens('some text', 1, keep as 'head'));
    expect(error.message).toMatch(/^truncateToTokens: keep must be "head" or "tail"; got /);
  });

  it('never echo the text refused (it may hold a secret)', () => {
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const error = inputError(() => truncateToTokens(secret, Number.NaN));
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify((error as { details?: unknown }).details)).not.toContain(secret);
  });

  it('take 0, a fraction and Infinity as counts of tokens', () => {
    expect(truncateToTokens('hello brave new world', 0)).toBe('');
    expect(truncateToTokens('hello brave new world', 2.9)).toBe('hello brave');
    expect(truncateToTokens('hello brave new world', Infinity)).toBe('hello brave new world');
    expect(truncateToTokens('hello brave new world', 2, 'tail')).toBe(' new world');
  });
});

describe('contextLimitFor', () => {
  it('uses the longest matching prefix', () => {
    expect(contextLimitFor('gpt-4o-mini')).toBe(128_000);
    expect(contextLimitFor('gpt-4-0613')).toBe(8_192);
    expect(contextLimitFor('claude-sonnet-4')).toBe(200_000);
  });

  it('falls back for unknown models and honours overrides', () => {
    expect(contextLimitFor('mystery-model')).toBe(DEFAULT_CONTEXT_LIMIT);
    expect(contextLimitFor('mystery-model', { mystery: 1234 })).toBe(1234);
  });

  it('has one default window: an unknown model and no model agree', () => {
    expect(DEFAULT_CONTEXT_LIMIT).toBe(128_000);
    expect(contextLimitFor(undefined)).toBe(DEFAULT_CONTEXT_LIMIT);
    expect(contextLimitFor('deepseek-coder')).toBe(DEFAULT_CONTEXT_LIMIT);
  });
});
