import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode as libraryEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { SHARED_TRAJECTORY_DIR } from '../../src/bench/index.js';
import { countO200k, decodeO200k, encodeO200k } from '../../src/tokens/encode-o200k.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const trajectories = path.resolve(root, SHARED_TRAJECTORY_DIR);
const hasTrajectories = existsSync(trajectories);
if (!hasTrajectories)
  console.warn(`[skip] ${trajectories} is absent (as in a user's clone): the trajectory corpus is skipped; CI runs it.`);

/** gpt-tokenizer's public encode, with special-token markers as ordinary text (Baton's reading). */
const ordinary = new Set<string>();
function library(text: string): number[] {
  return libraryEncode(text, { disallowedSpecial: ordinary });
}

function sameAsLibrary(text: string): void {
  const expected = library(text);
  const ids = encodeO200k(text);
  if (ids.length !== expected.length || ids.some((id, k) => id !== expected[k])) {
    expect(ids, JSON.stringify(text.slice(0, 200))).toEqual(expected);
  }
  expect(countO200k(text)).toBe(expected.length);
}

function* textFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* textFiles(file);
    else if (/\.(ts|mts|mjs|js|md|json|jsonl|yaml|yml|sh|txt|traj|html|css)$/.test(name)) yield file;
  }
}

/** Every string inside a JSON value (a trajectory's observations, thoughts, patches, ...). */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* stringsOf(item);
}

/** A deterministic pseudo-random source (tests must not vary from run to run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('encodeO200k: Baton’s own o200k_base encoder, the same ids as gpt-tokenizer’s public encode', () => {
  it.each([
    ['words and contractions', "It's what they'LL do; we'd've seen I'M sure they're here"],
    ['case runs', 'HTTPServer parseJSON XMLHttpRequest ABC abc Abc aBC'],
    ['digits in threes', '1234567 v2.10.3 0x7fff 3.14159 2026-11-22T14:21:30Z ١٢٣٤٥ ½ Ⅻ'],
    ['whitespace runs', 'a  b   c\t\td \n\n  e  \r\n\tf   \n   \u00a0\u2003x\u3000\u2028y\u0085 \u000b\f'],
    ['trailing whitespace', 'x   '],
    ['punctuation and line breaks', 'end.\n/next\n\n(((x)))\n=> {}\n// comment\n/* a */\n'],
    ['paths and URLs', 'src/routes/auth-12.ts:40:7 https://example.com/a/b?c=d&e=f#g'],
    ['control characters', 'a\u0001b\u007fc\u000bd\u000ce\u0000f'],
    ['typographic punctuation', '…/auth/routes.ts — “quoted” ‘single’ • item → next – dash…"'],
    ['a leading space before punctuation', ' (x) ".", ` ``` ` '],
    ['other scripts', 'Grüße, 東京 — naïve café ünïcödé Привет мир مرحبا بالعالم नमस्ते दुनिया 안녕하세요 ǅungla ʰʲ'],
    ['emoji and joiners', '👋🏽 🧑‍💻 🇫🇷 ❤️ ﬁ e\u0301 \u200b\u200d'],
    ['lone surrogates (encoded as U+FFFD, as gpt-tokenizer does)', 'a\ud800b \udc00 \ud83d x\udfff'],
    ['special-token markers, as ordinary text', '<|endoftext|> and <|fim_prefix|><|im_start|>user<|im_end|> <|endofprompt|> <|'],
    ['a long piece that is no token', 'x'.repeat(300) + ' ' + 'ab'.repeat(500) + ' ' + 'é'.repeat(200)],
    ['base64 and hex', 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg== deadbeefcafebabe'],
  ])('gives the library ids for %s', (_name, text) => {
    sameAsLibrary(text);
  });

  it('gives no tokens for empty text', () => {
    expect(encodeO200k('')).toEqual([]);
    expect(countO200k('')).toBe(0);
  });

  it('gives the library ids for every text file of this repository', () => {
    let files = 0;
    for (const dir of ['src', 'test', 'docs', 'examples', 'bench', 'scripts']) {
      for (const file of textFiles(path.join(root, dir))) {
        sameAsLibrary(readFileSync(file, 'utf8'));
        files += 1;
      }
    }
    expect(files).toBeGreaterThan(300);
  });

  it.skipIf(!hasTrajectories)('gives the library ids for real SWE-agent trajectories: each file whole, and every string in them', () => {
    let strings = 0;
    for (const name of readdirSync(trajectories).filter((f) => f.endsWith('.traj'))) {
      const text = readFileSync(path.join(trajectories, name), 'utf8');
      sameAsLibrary(text);
      for (const value of stringsOf(JSON.parse(text))) {
        sameAsLibrary(value);
        strings += 1;
      }
    }
    expect(strings).toBeGreaterThan(1000);
  });

  it('gives the library ids for 20,000 random strings over the characters the split regex treats apart', () => {
    const alphabet = [
      ...'aAzZbB09 \t\n\r\u000b\f\'sSlLvVeErRdDmMtT./-_()[]{}<>|!?,;:"`~@#$%^&*+=\\\u0001\u007f',
      ...'…–—“”→éÉßǅʰ東京ДжاءनाḀ\u0301\u0903٣½Ⅻ\u00a0\u2003\u2028\u0085\u3000',
      '👋',
      '🏽',
      '\u200d',
      '\ud800',
      '\udc00',
      '<|endoftext|>',
    ];
    const next = random(12345);
    for (let k = 0; k < 20_000; k++) {
      let text = '';
      const length = 1 + Math.floor(next() * 40);
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
      sameAsLibrary(text);
    }
  });

  it('counts a special-token marker as text instead of throwing (gpt-tokenizer’s default encode refuses it)', () => {
    expect(() => libraryEncode('stop <|endoftext|> here')).toThrow(/special token/i);
    expect(countO200k('stop <|endoftext|> here')).toBe(library('stop <|endoftext|> here').length);
  });
});

describe('decodeO200k', () => {
  it('gives back the text of its ids, whatever the script', () => {
    for (const text of ['const x = 42; // done\n', 'naïve café — “quoted” 🚀 日本語のテキスト', '\u{1F9D1}\u200D\u{1F4BB} ﬁ ǅ', '']) {
      expect(decodeO200k(encodeO200k(text))).toBe(text);
    }
  });

  it('decodes each call whole: a cut inside a character shows as U+FFFD there and not in the next call', () => {
    const ids = encodeO200k('🚀');
    expect(ids.length).toBeGreaterThan(1);
    expect(decodeO200k(ids.slice(0, 1))).toContain('\ufffd');
    expect(decodeO200k(encodeO200k('ok'))).toBe('ok');
  });

  it('refuses an id outside the vocabulary, naming it', () => {
    expect(() => decodeO200k([24912, 199_999])).toThrow(/199999 is not an o200k_base token id/);
    expect(() => decodeO200k([-1])).toThrow(/-1 is not/);
  });
});
