import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../../../errors/index.js';
import { parseLedgerLines } from '../../../ledger/index.js';
import { type CliIO, type CommonOptions, EXIT_OK, withCliLedger, printResult } from '../../context.js';

export async function runImport(io: CliIO, file: string, options: CommonOptions): Promise<number> {
  const source = file === '-' ? 'stdin' : path.resolve(io.cwd, file);
  const text = await readSource(source);
  // Every line is validated before the ledger is even opened: a bad line imports nothing.
  const lines = parseLedgerLines(text, source);
  return withCliLedger(io, options, async (ledger) => {
    const imported = await ledger.importLines(lines);
    const counts: Record<string, number> = {};
    for (const line of lines) counts[line.kind] = (counts[line.kind] ?? 0) + 1;
    printResult(io, options, { file: source, imported, counts }, () => `Imported ${imported} lines from ${source}`);
    return EXIT_OK;
  });
}

async function readSource(source: string): Promise<string> {
  if (source === 'stdin') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(source, 'utf8');
  } catch (error) {
    throw new BatonError('INPUT_INVALID', `Cannot read import file ${source}: ${(error as Error).message}`, {
      cause: error,
      details: { file: source },
    });
  }
}
