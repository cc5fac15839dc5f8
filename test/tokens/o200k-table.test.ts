import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import libraryRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { decode as libraryDecode, encode as libraryEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { PINNED_GPT_TOKENIZER } from '../../src/tokens/o200k-encoding.js';
import { O200kTable, o200kTableBytes } from '../../src/tokens/o200k-table.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bytes = o200kTableBytes(libraryRanks, PINNED_GPT_TOKENIZER);

describe('the o200k table (the bundled command’s vocabulary)', () => {
  const table = O200kTable.fromBytes(bytes, PINNED_GPT_TOKENIZER);

  it('finds every text token at its rank, and nothing else', () => {
    expect(table).toBeDefined();
    let texts = 0;
    libraryRanks.forEach((token, rank) => {
      if (typeof token !== 'string') return;
      texts += 1;
      // Inside a longer string, as the scanner asks.
      const padded = `«${token}»`;
      if (table?.rank(padded, 1, 1 + token.length) !== rank) throw new Error(`token ${JSON.stringify(token)} (rank ${rank}) not found`);
    });
    expect(texts).toBeGreaterThan(190_000);
    expect(table?.rank('zqxjzqxjzqxj', 0, 12)).toBeUndefined();
    expect(table?.rank('hello', 0, 0)).toBeUndefined();
  });

  it('merges ASCII pieces as the library does, and decodes text tokens (byte tokens are left to the library)', () => {
    for (const piece of ['zqxjzqxj', 'supercalifragilistic', ' aVeryLongIdentifierName_with_parts', '0x7fffffff', '~~~~~~~~~~~~']) {
      expect(table?.mergeAscii(piece), piece).toEqual(libraryEncode(piece));
    }
    const ids = libraryEncode('const x = 42; // done\n');
    expect(table?.decode(ids)).toBe(libraryDecode(ids));
    const byteToken = libraryRanks.findIndex((token) => Array.isArray(token));
    expect(table?.decode([byteToken])).toBeUndefined();
    expect(table?.decode([-1])).toBeUndefined();
  });

  it('is refused when written for another gpt-tokenizer version, truncated, or not a table', () => {
    expect(O200kTable.fromBytes(bytes, '0.0.1')).toBeUndefined();
    expect(O200kTable.fromBytes(bytes.subarray(0, bytes.length - 2), PINNED_GPT_TOKENIZER)).toBeUndefined();
    expect(O200kTable.fromBytes(new TextEncoder().encode('{"version":"3.4.0"}'), PINNED_GPT_TOKENIZER)).toBeUndefined();
    // A copy at an odd offset still reads (typed views need aligned memory).
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(O200kTable.fromBytes(shifted.subarray(1), PINNED_GPT_TOKENIZER)?.rank('hello', 0, 5)).toBe(libraryEncode('hello')[0]);
    expect(O200kTable.read(pathToFileURL(path.join(root, 'no-such-table.bin')), PINNED_GPT_TOKENIZER)).toBeUndefined();
  });

  it('is what the built library counts with: ASCII text never builds gpt-tokenizer’s encoding, other text does, and both count as the library', () => {
    const built = path.join(root, 'dist/tokens/fast-o200k.js');
    expect(existsSync(built), 'npm run build first').toBe(true);
    const script = `
      const enc = await import(${JSON.stringify(pathToFileURL(path.join(root, 'dist/tokens/o200k-encoding.js')).href)});
      const fast = await import(${JSON.stringify(pathToFileURL(built).href)});
      const out = { table: enc.o200kTable !== undefined };
      out.ascii = fast.encodeO200k('function main() { return "ok"; } // zqxjzqxj\\n');
      out.builtAfterAscii = enc.o200kLibraryBuilt();
      out.head = fast.decodeO200k(out.ascii.slice(0, 4));
      out.wide = fast.encodeO200k('naïve café — 東京 👋🏽');
      out.builtAfterWide = enc.o200kLibraryBuilt();
      console.log(JSON.stringify(out));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Record<
      string,
      unknown
    >;
    expect(out.table).toBe(true);
    expect(out.ascii).toEqual(libraryEncode('function main() { return "ok"; } // zqxjzqxj\n'));
    expect(out.builtAfterAscii).toBe(false);
    expect(out.head).toBe(libraryDecode(libraryEncode('function main() { return "ok"; } // zqxjzqxj\n').slice(0, 4)));
    expect(out.wide).toEqual(libraryEncode('naïve café — 東京 👋🏽'));
    expect(out.builtAfterWide).toBe(true);
  });
});
