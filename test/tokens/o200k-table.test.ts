import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encode as libraryEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { O200kTable, o200kTableBytes } from '../../src/tokens/o200k-table.js';
import { o200kTiktokenFile } from '../../src/tokens/o200k-vocabulary.js';
import { readTiktokenRanks } from '../../src/tokens/read-tiktoken-ranks.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ranks = readTiktokenRanks(o200kTiktokenFile());
const tokens = Array.from({ length: ranks.starts.length - 1 }, (_, rank) =>
  ranks.bytes.subarray(ranks.starts[rank], ranks.starts[rank + 1]),
);
const bytes = o200kTableBytes(ranks);
const dir = mkdtempSync(path.join(tmpdir(), 'baton-o200k-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(name: string, text: string): URL {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return pathToFileURL(file);
}

describe('the o200k_base vocabulary in tiktoken’s format (gpt-tokenizer’s data/ export)', () => {
  it('holds every token by rank, byte tokens included, decoded as Buffer decodes base64', () => {
    const lines = readFileSync(o200kTiktokenFile(), 'latin1').trim().split('\n');
    expect(lines.every((line, rank) => Buffer.from(line.split(' ')[0] as string, 'base64').equals(tokens[rank] as Uint8Array))).toBe(true);
    expect(tokens.length).toBe(199_998);
    expect(new TextDecoder().decode(tokens[libraryEncode('hello')[0] as number])).toBe('hello');
    // Some tokens are not valid UTF-8 on their own: parts of a multi-byte character.
    expect(tokens.some((token) => token.length === 1 && (token[0] as number) >= 0x80)).toBe(true);
  });

  it('refuses a malformed file, naming the file, the line and what it expected', () => {
    expect(() => readTiktokenRanks(fileWith('gap.tiktoken', 'IQ== 0\nIg== 2\n'))).toThrow(
      /gap\.tiktoken:2: expected "<base64 bytes> 1", found "Ig== 2"/,
    );
    expect(() => readTiktokenRanks(fileWith('bad.tiktoken', 'no-rank-here\n'))).toThrow(/bad\.tiktoken:1: expected "<base64 bytes> 0"/);
    expect(() => readTiktokenRanks(fileWith('digit.tiktoken', 'IQ== 0\nI*== 1\n'))).toThrow(
      /digit\.tiktoken:2: expected "<base64 bytes> 1", found "I\*== 1"/,
    );
    expect(() => readTiktokenRanks(fileWith('rank.tiktoken', 'IQ== 0x\n'))).toThrow(
      /rank\.tiktoken:1: expected "<base64 bytes> 0", found "IQ== 0x"/,
    );
  });
});

describe('the o200k table (the vocabulary file the build writes beside the bundle)', () => {
  const table = O200kTable.fromBytes(bytes);

  it('finds every token at its rank, and nothing else', () => {
    expect(table?.size).toBe(tokens.length);
    tokens.forEach((token, rank) => {
      // Inside a longer buffer, as the encoder asks.
      const padded = new Uint8Array([0xff, ...token, 0xff]);
      if (table?.rankOf(padded, 1, 1 + token.length) !== rank) throw new Error(`token ${rank} not found`);
    });
    const miss = new TextEncoder().encode('zqxjzqxjzqxj');
    expect(table?.rankOf(miss, 0, miss.length)).toBeUndefined();
    expect(table?.rankOf(miss, 0, 0)).toBeUndefined();
  });

  it('gives each token’s bytes back, and nothing for an id outside the vocabulary', () => {
    expect(table?.bytesOf(libraryEncode(' world')[0] as number)).toEqual(new TextEncoder().encode(' world'));
    for (const id of [-1, tokens.length, 199_999, 1.5]) expect(table?.bytesOf(id)).toBeUndefined();
  });

  it('is refused when truncated or not a table; read at any offset', () => {
    expect(O200kTable.fromBytes(bytes.subarray(0, bytes.length - 2))).toBeUndefined();
    expect(O200kTable.fromBytes(new TextEncoder().encode('{"version":"3.4.0","ranks":[]}'))).toBeUndefined();
    expect(O200kTable.fromBytes(new Uint8Array(3))).toBeUndefined();
    // A table of the older layout (BTK1: text tokens keyed by UTF-16) is not this one.
    const older = bytes.slice();
    new DataView(older.buffer).setUint32(0, 0x314b5442, true);
    expect(O200kTable.fromBytes(older)).toBeUndefined();
    // A copy at an odd offset still reads (typed views need aligned memory).
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const hello = new TextEncoder().encode('hello');
    expect(O200kTable.fromBytes(shifted.subarray(1))?.rankOf(hello, 0, 5)).toBe(libraryEncode('hello')[0]);
    expect(O200kTable.read(pathToFileURL(path.join(root, 'no-such-table.bin')))).toBeUndefined();
  });

  it('is what the built library counts with: read from beside the bundle, never gpt-tokenizer’s data or code', () => {
    const built = path.join(root, 'dist/tokens/encode-o200k.js');
    expect(existsSync(built), 'npm run build first').toBe(true);
    // Every file the process reads (fs.readFileSync, patched before the module loads) and every
    // module it loads: the table file is read, gpt-tokenizer is not touched.
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const read = [];
      const original = fs.readFileSync;
      fs.readFileSync = (file, ...rest) => { read.push(String(file)); return original(file, ...rest); };
      syncBuiltinESMExports();
      const { encodeO200k, decodeO200k } = await import(${JSON.stringify(pathToFileURL(built).href)});
      const text = 'function main() { return "ok"; } // naïve café — 東京 👋🏽\\n';
      const ids = encodeO200k(text);
      console.log(JSON.stringify({ ids, back: decodeO200k(ids), read }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as {
      ids: number[];
      back: string;
      read: string[];
    };
    const text = 'function main() { return "ok"; } // naïve café — 東京 👋🏽\n';
    expect(out.ids).toEqual(libraryEncode(text));
    expect(out.back).toBe(text);
    expect(out.read.filter((file) => file.includes('o200k_base'))).toEqual([
      pathToFileURL(path.join(root, 'dist/cli-bundle/o200k_base.table.bin')).href,
    ]);
  });
});
