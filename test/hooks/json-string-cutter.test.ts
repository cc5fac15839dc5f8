import { describe, expect, it } from 'vitest';
import { JsonStringCutter } from '../../src/hooks/index.js';

/** Feeds `text` to a cutter in pieces of `size` characters (pieces may end inside an escape). */
function cut(text: string, size: number, head = 8, tail = 8): string {
  const cutter = new JsonStringCutter(head, tail);
  for (let i = 0; i < text.length; i += size) cutter.push(text.slice(i, i + size));
  return cutter.text();
}

/** A deterministic random generator (a fixed seed: the same cases every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const ALPHABET = ['a', 'b', ' ', '"', '\\', '\n', '\t', 'é', '😀', '\u0001', '/', '{', '}'];

describe('JsonStringCutter', () => {
  it('leaves a text whose strings are short exactly as it was, however it is split', () => {
    const text = JSON.stringify({ session_id: 'abc', tool_input: { command: 'ls -la "x"\n' }, n: [1, 2.5, null, true] });
    for (const size of [1, 2, 3, 7, 1000]) expect(cut(text, size, 64, 64)).toBe(text);
  });

  it('keeps the head and the tail of every long string, never splits an escape, and the result always parses', () => {
    const next = random(7);
    for (let round = 0; round < 300; round += 1) {
      const value = Array.from({ length: Math.floor(next() * 60) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
      const text = JSON.stringify({ a: value, b: [value, 'x'], c: { d: value } });
      const parsed = JSON.parse(cut(text, 1 + Math.floor(next() * 9))) as { a: string; b: string[]; c: { d: string } };
      const expected = value.length <= 16 ? value : undefined;
      for (const got of [parsed.a, parsed.b[0] ?? '', parsed.c.d]) {
        if (expected !== undefined) expect(got).toBe(expected);
        else {
          expect(got.startsWith(value.slice(0, 4))).toBe(true);
          expect(got.endsWith(value.slice(-4))).toBe(true);
          expect(got).toMatch(/…\[\d+ characters cut\]…/);
        }
      }
      expect(parsed.b[1]).toBe('x');
    }
  });

  it('keeps a text of 20 MB within its cap: the fields beside the long strings survive', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const text = JSON.stringify({ tool_input: { content: big }, session_id: 's1', tool_response: { content: big }, tool_name: 'Write' });
    const cutter = new JsonStringCutter();
    for (let i = 0; i < text.length; i += 65_536) cutter.push(text.slice(i, i + 65_536));
    const out = cutter.text();
    expect(out.length).toBeLessThan(100_000);
    expect(JSON.parse(out)).toMatchObject({ session_id: 's1', tool_name: 'Write' });
  });
});
