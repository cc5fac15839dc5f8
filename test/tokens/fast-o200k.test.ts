import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import libraryRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { encode as libraryEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  countO200k,
  encodeO200k,
  O200K_SCANNER_ACTIVE,
  o200kScannerContract,
  PINNED_GPT_TOKENIZER,
  scanCount,
  scanEncode,
  tableVocabulary,
} from '../../src/tokens/fast-o200k.js';
import { O200kTable, o200kTableBytes } from '../../src/tokens/o200k-table.js';

// The bundled command's table (scripts/bundle-cli.mjs writes the same bytes): every text below
// must give the library's ids through it too.
const table = O200kTable.fromBytes(o200kTableBytes(libraryRanks, PINNED_GPT_TOKENIZER), PINNED_GPT_TOKENIZER);
if (!table) throw new Error('the o200k table did not read back');
const tableVocab = tableVocabulary(table);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sameAsLibrary(text: string): void {
  let expected: number[];
  try {
    expected = libraryEncode(text);
  } catch (error) {
    // Text holding a special-token marker is refused by both, with the library's error.
    expect(() => encodeO200k(text)).toThrow((error as Error).message);
    return;
  }
  expect(encodeO200k(text), JSON.stringify(text.slice(0, 120))).toEqual(expected);
  expect(countO200k(text)).toBe(expected.length);
  expect(scanEncode(tableVocab, text), `table: ${JSON.stringify(text.slice(0, 120))}`).toEqual(expected);
  expect(scanCount(tableVocab, text)).toBe(expected.length);
}

function* textFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* textFiles(file);
    else if (/\.(ts|md|json|yaml|sh|txt)$/.test(name)) yield file;
  }
}

describe('encodeO200k (the scanner path of the o200k_base tokenizer, on the library’s map and on the bundled table)', () => {
  it('runs on this gpt-tokenizer (an upgrade that drops its vocabulary map would silently slow every count)', () => {
    // The message says which private part moved and what to do.
    expect(o200kScannerContract()).toBeUndefined();
    expect(O200K_SCANNER_ACTIVE).toBe(true);
  });

  it('is pinned: package.json names exactly the gpt-tokenizer version the private parts were checked against', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const installed = JSON.parse(readFileSync(path.join(root, 'node_modules/gpt-tokenizer/package.json'), 'utf8')) as { version: string };
    expect(pkg.dependencies['gpt-tokenizer'], 'gpt-tokenizer must be pinned to an exact version (see src/tokens/fast-o200k.ts)').toBe(
      PINNED_GPT_TOKENIZER,
    );
    expect(installed.version).toBe(PINNED_GPT_TOKENIZER);
  });

  it.each([
    ['words and contractions', "It's what they'LL do; we'd've seen I'M sure they're here"],
    ['case runs', 'HTTPServer parseJSON XMLHttpRequest ABC abc Abc aBC'],
    ['digits in threes', '1234567 v2.10.3 0x7fff 3.14159 2026-11-22T14:21:30Z'],
    ['whitespace runs', 'a  b   c\t\td \n\n  e  \r\n\tf   \n   '],
    ['punctuation and line breaks', 'end.\n/next\n\n(((x)))\n=> {}\n// comment\n/* a */\n'],
    ['paths and URLs', 'src/routes/auth-12.ts:40:7 https://example.com/a/b?c=d&e=f#g'],
    ['control characters', 'a\u0001b\u007fc\u000bd\u000ce'],
    ['typographic punctuation', '…/auth/routes.ts — “quoted” ‘single’ • item → next – dash…"'],
    ['a leading space before punctuation', ' (x) ".", ` ``` ` '],
  ])('gives the library ids for %s', (_name, text) => {
    sameAsLibrary(text);
  });

  it('gives the library ids for every text file of this repository', () => {
    let files = 0;
    for (const dir of ['src', 'test', 'docs', 'examples']) {
      for (const file of textFiles(path.join(root, dir))) {
        sameAsLibrary(readFileSync(file, 'utf8'));
        files += 1;
      }
    }
    expect(files).toBeGreaterThan(100);
  });

  it('gives the library ids for 20,000 random strings over the characters the split regex treats apart', () => {
    const alphabet = 'aAzZbB09 \t\n\r\u000b\f\'sSlLvVeErRdDmMtT./-_()[]{}<>|!?,;:"`~@#$%^&*+=\\\u0001\u007f…–—“”→';
    let seed = 12345;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let k = 0; k < 20_000; k++) {
      let text = '';
      const length = 1 + Math.floor(next() * 40);
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
      if (text.includes('<|')) continue;
      sameAsLibrary(text);
    }
  });

  it('leaves other scripts and special-token markers to the library, with its behaviour', () => {
    sameAsLibrary('Grüße, 東京 — naïve café 👋🏽 ünïcödé');
    expect(() => encodeO200k('before <|endoftext|> after')).toThrow(/special token/i);
    expect(encodeO200k('')).toEqual([]);
  });
});
