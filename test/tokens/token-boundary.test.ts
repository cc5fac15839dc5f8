import { describe, expect, it } from 'vitest';
import { countTokens, startsTokenPiece } from '../../src/tokens/index.js';

/** Deterministic PRNG so a failure names a reproducible case. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}

// Heads end in every kind of character the pre-tokenizer treats differently at a line break.
const HEADS = ['--- END CONTEXT ---', 'error: "quoted"', 'path/to/', 'word', 'trailing space ', '42', 'é漢字🙂', '...', 'a/', ''];
const ALPHABET = ['a', 'Z', ' ', '-', '"', '/', '.', '…', '7', 'é', '漢', '🙂', "'s", ':', '\t', '\n', 'Ab', '—', '#', '1234'];

describe('startsTokenPiece', () => {
  it('accepts text starting with a letter, digit or punctuation other than "/"', () => {
    expect(startsTokenPiece('- error')).toBe(true);
    expect(startsTokenPiece('Attempt 2')).toBe(true);
    expect(startsTokenPiece('"quoted"')).toBe(true);
    expect(startsTokenPiece('')).toBe(false);
    expect(startsTokenPiece(' indented')).toBe(false);
    expect(startsTokenPiece('\u00a0nbsp')).toBe(false);
    expect(startsTokenPiece('/abs/path')).toBe(false);
    expect(startsTokenPiece('\nblank')).toBe(false);
  });

  it('guarantees the line-by-line count equals the count of the joined text', () => {
    const random = rng(7);
    const word = () =>
      Array.from({ length: 1 + Math.floor(random() * 12) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      const head = (HEADS[i % HEADS.length] as string) + (i % 3 === 0 ? word() : '');
      const tail = word();
      if (!startsTokenPiece(tail)) continue;
      checked += 1;
      expect(countTokens(`${head}\n${tail}`), JSON.stringify([head, tail])).toBe(countTokens(`${head}\n`) + countTokens(tail));
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('is needed: a tail that starts with whitespace or "/" can change the count', () => {
    const differs = ['  x', '/x', '\n\nx', ' \nx'].some((tail) => countTokens(`---\n${tail}`) !== countTokens('---\n') + countTokens(tail));
    expect(differs).toBe(true);
  });
});
