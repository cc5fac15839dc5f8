import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { O200kTable } from './o200k-table.js';
import { readTiktokenRanks } from './read-tiktoken-ranks.js';

/** The vocabulary table the build leaves beside the bundled command's chunks (scripts/bundle-cli.mjs). */
export const O200K_TABLE_FILE = 'o200k_base.table.bin';

/**
 * Where the table is: beside the bundle's chunks (dist/cli-bundle/), which dist/tokens/ (the
 * library build) also reads from, so the package carries it once. None beside the sources.
 */
function readTableFile(): O200kTable | undefined {
  const file = [new URL(`./${O200K_TABLE_FILE}`, import.meta.url), new URL(`../cli-bundle/${O200K_TABLE_FILE}`, import.meta.url)].find(
    (candidate) => existsSync(candidate),
  );
  return file && O200kTable.read(file);
}

/**
 * The o200k_base vocabulary in tiktoken's format, as gpt-tokenizer publishes it (its `data/`
 * export; a development dependency): the source the build writes the table from, and the
 * table's source at run time when the build's file is absent (tests and benchmarks run from the
 * sources). Throws, saying what to do, when neither is there.
 */
export function o200kTiktokenFile(): URL {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
  } catch (error) {
    throw new Error(
      `the o200k_base table ${O200K_TABLE_FILE} is missing from dist/cli-bundle/ and gpt-tokenizer (its source, a development dependency) is not installed: reinstall agent-baton, or run \`npm run build\` in a checkout`,
      { cause: error },
    );
  }
}

let table: O200kTable | undefined;

/** The o200k_base table: read from the build's file (3 ms), else built from the tiktoken data (on first use). */
export function o200kTable(): O200kTable {
  table ??= readTableFile() ?? O200kTable.fromRanks(readTiktokenRanks(o200kTiktokenFile()));
  return table;
}
