import { existsSync, readFileSync } from 'node:fs';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { O200K_TABLE_FILE, O200kTable, type O200kRanks } from './o200k-table.js';

/** The gpt-tokenizer version whose private BPE core the fast path was checked against. */
export const PINNED_GPT_TOKENIZER = '3.4.0';

/** The vocabulary file the bundled command carries beside its chunks (scripts/bundle-cli.mjs). */
export const O200K_RANKS_FILE = 'o200k_base.ranks.json';

export type { O200kRanks };

/**
 * gpt-tokenizer ships its o200k vocabulary as a 2.2 MB JavaScript module; V8 parses the same
 * data as JSON about 35 ms sooner (60 against 97 ms here). The bundled command carries that JSON,
 * written from the installed gpt-tokenizer at build time; elsewhere (tests, the library build)
 * the module itself is loaded. A file for another gpt-tokenizer version, or one that cannot be
 * read, is ignored.
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

/**
 * Where the build leaves the vocabulary files: beside the bundle's chunks (dist/cli-bundle/), which
 * dist/tokens/ (the library build) also reads from, so the package carries them once.
 */
const vocabularyFolder = [new URL('./', import.meta.url), new URL('../cli-bundle/', import.meta.url)].find((folder) =>
  existsSync(new URL(O200K_RANKS_FILE, folder)),
);
const ranksFile = new URL(O200K_RANKS_FILE, vocabularyFolder ?? import.meta.url);

/**
 * The ready-made table of text tokens (o200k-table.ts), when the build left it with the JSON
 * vocabulary: the library's encoding is then built only for text the table cannot take alone
 * (see fast-o200k.ts), from that JSON, on first use.
 */
export const o200kTable: O200kTable | undefined = vocabularyFolder
  ? O200kTable.read(new URL(O200K_TABLE_FILE, vocabularyFolder), PINNED_GPT_TOKENIZER)
  : undefined;

// Without the table, the vocabulary loads now: the library path must be ready synchronously.
const eagerRanks = o200kTable ? undefined : (readO200kRanksFile(ranksFile) ?? (await import('gpt-tokenizer/bpeRanks/o200k_base')).default);

let library: GptEncoding | undefined;

/** Whether o200kLibrary() has built the library's encoding in this thread (tests and diagnostics). */
export function o200kLibraryBuilt(): boolean {
  return library !== undefined;
}

/** gpt-tokenizer's o200k_base encoding, built as its `encoding/o200k_base` module builds it (on first use). */
export function o200kLibrary(): GptEncoding {
  library ??= GptEncoding.getEncodingApi('o200k_base', () => {
    const ranks = eagerRanks ?? readO200kRanksFile(ranksFile);
    if (!ranks)
      throw new Error(
        `the o200k vocabulary ${ranksFile.pathname} is missing or not for gpt-tokenizer ${PINNED_GPT_TOKENIZER}: rebuild (npm run build)`,
      );
    return ranks;
  });
  return library;
}

/**
 * The text of O200K_RANKS_FILE for the bundle build: the installed gpt-tokenizer's vocabulary,
 * marked with its version (`installedVersion`, read from its package.json).
 */
export async function o200kRanksFileText(installedVersion: string): Promise<string> {
  const library = (await import('gpt-tokenizer/bpeRanks/o200k_base')).default;
  return JSON.stringify({ version: installedVersion, ranks: library });
}
