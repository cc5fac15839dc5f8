import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { formatLedgerLine } from '../../../ledger/index.js';
import { type CliIO, type CommonOptions, EXIT_OK, withCliLedger } from '../../context.js';
import { waitForHookFolds } from '../sessions/workspace-sessions.js';

/**
 * Streams the export so a million dispatches never sit in memory at once. Like the commands that
 * read sessions, it first waits for the folds the last Stop and SessionEnd hooks handed off, so
 * `claude -p …; baton export` holds the session's last turn.
 */
export async function runExport(io: CliIO, options: CommonOptions & { out?: string }): Promise<number> {
  const counts: Record<string, number> = {};
  await waitForHookFolds(io);
  return withCliLedger(io, { ...options, readOnly: true }, async (ledger) => {
    const file = options.out ? path.resolve(io.cwd, options.out) : undefined;
    const stream = file ? createWriteStream(file) : undefined;
    for await (const line of ledger.exportLines()) {
      counts[line.kind] = (counts[line.kind] ?? 0) + 1;
      const text = `${formatLedgerLine(line)}\n`;
      if (stream) {
        if (!stream.write(text)) await once(stream, 'drain');
      } else io.stdout(text);
    }
    if (stream) {
      stream.end();
      await once(stream, 'finish');
      const summary = { file, lines: Object.values(counts).reduce((a, b) => a + b, 0), counts };
      if (options.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
      else io.stderr(`Exported ${summary.lines} lines to ${file}\n`);
    }
    return EXIT_OK;
  });
}
