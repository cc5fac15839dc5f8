import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import libraryRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { encode as libraryEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { o200kLibrary, o200kRanksFileText, PINNED_GPT_TOKENIZER, readO200kRanksFile } from '../../src/tokens/o200k-encoding.js';

const dir = mkdtempSync(path.join(tmpdir(), 'baton-o200k-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(name: string, text: string): URL {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return pathToFileURL(file);
}

describe('the o200k vocabulary file of the bundled command', () => {
  it('holds exactly gpt-tokenizer’s vocabulary, byte tokens included, so it encodes exactly as the library', async () => {
    const ranks = readO200kRanksFile(fileWith('ranks.json', await o200kRanksFileText(PINNED_GPT_TOKENIZER)));
    expect(ranks).toBeDefined();
    expect(ranks).toEqual(libraryRanks);
    // Tokens that are not valid UTF-8 on their own are byte arrays; they survive the JSON round trip.
    expect(ranks?.some((rank) => Array.isArray(rank))).toBe(true);
    const fromFile = GptEncoding.getEncodingApi('o200k_base', () => ranks ?? []);
    for (const text of ['plain ASCII code(); // done', 'naïve café — “quoted” 🚀 日本語のテキスト', '\u{1F9D1}\u200D\u{1F4BB} ﬁ ǅ']) {
      expect(fromFile.encode(text)).toEqual(libraryEncode(text));
    }
  });

  it('is ignored when it was written for another gpt-tokenizer version, is malformed or is missing', async () => {
    const other = JSON.stringify({ version: '0.0.1', ranks: ['a'] });
    expect(readO200kRanksFile(fileWith('other.json', other))).toBeUndefined();
    expect(readO200kRanksFile(fileWith('bad.json', '{"version": "3.4.0", "ranks": ['))).toBeUndefined();
    expect(readO200kRanksFile(fileWith('no-ranks.json', JSON.stringify({ version: PINNED_GPT_TOKENIZER })))).toBeUndefined();
    expect(readO200kRanksFile(pathToFileURL(path.join(dir, 'absent.json')))).toBeUndefined();
  });

  it('builds the encoding as gpt-tokenizer builds it (the library path here: no file beside the source)', () => {
    const o200k = o200kLibrary();
    expect(o200k.encode('hello world')).toEqual(libraryEncode('hello world'));
    expect(o200k.decode(o200k.encode('naïve 🚀'))).toBe('naïve 🚀');
  });
});
