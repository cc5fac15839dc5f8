import { readFileSync } from 'node:fs';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';

/** The gpt-tokenizer version whose private BPE core the fast path was checked against. */
export const PINNED_GPT_TOKENIZER = '3.4.0';

/** The vocabulary file the bundled command carries beside its chunks (scripts/bundle-cli.mjs). */
export const O200K_RANKS_FILE = 'o200k_base.ranks.json';

export type O200kRanks = (string | number[])[];

/**
 * gpt-tokenizer ships its o200k vocabulary as a 2.2 MB JavaScript module; V8 parses the same
 * data as JSON about 35 ms sooner (60 against 97 ms here), and a fresh `baton mcp` loads it while
 * it starts. The bundled command carries that JSON, written from the installed gpt-tokenizer at
 * build time; elsewhere (tests, the library build) the module itself is loaded. A file for another
 * gpt-tokenizer version, or one that cannot be read, is ignored.
 */
export function readO200kRanksFile(file: URL): O200kRanks | undefined {
  try {
    const contents = JSON.parse(readFileSync(file, 'utf8')) as {
      version?: unknown;
      ranks?: unknown;
    };
    return contents.version === PINNED_GPT_TOKENIZER && Array.isArray(contents.ranks) ? (contents.ranks as O200kRanks) : undefined;
  } catch {
    return undefined;
  }
}

const ranks =
  readO200kRanksFile(new URL(`./${O200K_RANKS_FILE}`, import.meta.url)) ?? (await import('gpt-tokenizer/bpeRanks/o200k_base')).default;

/** gpt-tokenizer's o200k_base encoding, built as its `encoding/o200k_base` module builds it. */
export const o200k = GptEncoding.getEncodingApi('o200k_base', () => ranks);

/**
 * The text of O200K_RANKS_FILE for the bundle build: the installed gpt-tokenizer's vocabulary,
 * marked with its version (`installedVersion`, read from its package.json).
 */
export async function o200kRanksFileText(installedVersion: string): Promise<string> {
  const library = (await import('gpt-tokenizer/bpeRanks/o200k_base')).default;
  return JSON.stringify({ version: installedVersion, ranks: library });
}
