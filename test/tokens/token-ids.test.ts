import { describe, expect, it } from 'vitest';
import { countTokens, encodeTokens, headOfTokens } from '../../src/tokens/index.js';

describe('encodeTokens and headOfTokens', () => {
  it('encodes to o200k_base ids whose count is countTokens', () => {
    const text = 'Attempt 2 touched: src/index.ts - error: "endpoint returns 404"\n';
    expect(encodeTokens(text)).toHaveLength(countTokens(text));
    expect(encodeTokens('')).toEqual([]);
  });

  it('cuts ASCII text to the prefix of its first N tokens without re-encoding', () => {
    const text = 'hello brave new world of tokens';
    const ids = encodeTokens(text);
    expect(headOfTokens(text, ids, 2)).toBe('hello brave');
    expect(headOfTokens(text, ids, 0)).toBe('');
    expect(headOfTokens(text, ids, ids.length)).toBe(text);
    for (let n = 1; n < ids.length; n++) {
      const head = headOfTokens(text, ids, n);
      expect(text.startsWith(head)).toBe(true);
      expect(countTokens(head)).toBeLessThanOrEqual(n);
    }
  });

  it('cuts non-ASCII text to a clean prefix within the count, leaving no stray bytes for later decodes', () => {
    const text = '🙂é漢字 ＡＢＣ　ｄｅｆ '.repeat(20);
    const ids = encodeTokens(text);
    for (const n of [1, 3, 7, 20, 50]) {
      const head = headOfTokens(text, ids, n);
      expect(text.startsWith(head)).toBe(true);
      expect(head).not.toContain('\uFFFD');
      expect(countTokens(head)).toBeLessThanOrEqual(n);
    }
  });
});
