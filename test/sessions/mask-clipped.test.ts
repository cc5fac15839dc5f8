import { describe, expect, it } from 'vitest';
import { maskSecretsSync } from '../../src/redact/index.js';
import { clipText, MASK_MARGIN_CHARS, maskClipped } from '../../src/sessions/clip-text.js';
import { FAKE } from '../redact/fake-secrets.js';

const MAX = 48_000;
const filler = (n: number) => 'ok line of build output\n'.repeat(Math.ceil(n / 24)).slice(0, n);

describe('maskClipped: only the kept head and tail of a long output are masked (issue 37)', () => {
  it('keeps no secret near either cut, a PEM key crossing the tail cut included, and equals masking the whole then cutting', () => {
    const head = Math.floor((MAX * 2) / 3);
    const size = MAX + 4 * MASK_MARGIN_CHARS;
    const tailStart = size - (MAX - head);
    const secrets = [FAKE.githubPat, FAKE.openai, `password=${FAKE.password}`, FAKE.privateKey, FAKE.jwt];
    // One secret across the head's cut, one across the tail's, a PEM key starting before the tail, one in the cut middle.
    let text = filler(size);
    const put = (at: number, s: string) => {
      text = text.slice(0, at) + s + text.slice(at + s.length);
    };
    put(head - 10, ` ${secrets[0]} `);
    put(tailStart - 12, ` ${secrets[1]} `);
    put(tailStart - 100, `\n${secrets[3]}\n`);
    put(Math.floor(size / 2), ` ${secrets[2]} `);
    put(size - 200, ` ${secrets[4]} `);
    const ours = maskClipped(text, MAX);
    expect(ours.truncated).toBe(true);
    for (const s of [
      FAKE.githubPat,
      FAKE.openai,
      FAKE.password,
      FAKE.jwt,
      FAKE.privateKey.split('\n')[1] as string,
      FAKE.privateKey.split('\n')[2] as string,
    ]) {
      expect(ours.text).not.toContain(s.slice(4, 24));
    }
    const whole = clipText(maskSecretsSync(text).text, MAX).text;
    const [oursHead, oursTail] = ours.text.split(/\n… \[\d+ characters cut\] …\n/);
    const [wholeHead, wholeTail] = whole.split(/\n… \[\d+ characters cut\] …\n/);
    expect(oursHead).toBe(wholeHead);
    expect(oursTail).toBe(wholeTail);
  });

  it('masks a text up to the bound and the margins whole, as before', () => {
    const text = `${filler(MAX + 100)} token ${FAKE.githubPat}`;
    expect(maskClipped(text, MAX).text).toBe(clipText(maskSecretsSync(text).text, MAX).text);
  });
});
