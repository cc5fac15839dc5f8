import { describe, expect, it } from 'vitest';
import { cleanValue } from '../../src/precontext/fit-context.js';

describe('cleanValue (one value on one line of a pre-context block)', () => {
  it.each([
    ['tabs and line breaks', 'a\tb\nc\r\nd', 'a b c d'],
    ['double spaces', 'a  b', 'a b'],
    ['a leading space', ' a b', 'a b'],
    ['a trailing space', 'a b ', 'a b'],
    ['vertical tab and form feed', 'a\u000bb\fc', 'a b c'],
    ['no-break and ideographic spaces', 'a\u00a0b\u3000c', 'a b c'],
  ])('flattens %s', (_name, input, expected) => {
    expect(cleanValue(input)).toBe(expected);
  });

  it('returns a value with single inner spaces as it is (the same string)', () => {
    const value = 'KeyError: timeout in parse_config (src/config.py:40)';
    expect(cleanValue(value)).toBe(value);
    expect(cleanValue('naïve — café')).toBe('naïve — café');
  });

  it('cuts long values to 240 characters after masking secrets, and defuses special-token markers', () => {
    const secret = `ghp_${'a1B2'.repeat(9)}`;
    const out = cleanValue(`${'x'.repeat(230)} ${secret} <|endoftext|>`);
    expect(out.length).toBeLessThanOrEqual(240);
    expect(out).not.toContain('ghp_');
    expect(cleanValue('stop <|endoftext|> here')).toBe('stop <endoftext> here');
  });
});
