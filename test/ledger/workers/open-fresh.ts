/**
 * Opens ROUNDS fresh SQLite ledgers DIR/r<N>.db, round N at START + N × GAP ms (a shared clock, so
 * every process opens the same new file at the same moment), and closes each. Prints one JSON
 * line: {"opened","failures":[messages]}.
 *
 *   node --import tsx test/ledger/workers/open-fresh.ts DIR START ROUNDS GAP
 */
import path from 'node:path';
import { errorMessage } from '../../../src/errors/index.js';
import { openLedger } from '../../../src/ledger/index.js';
import { fail, parseWorkerArgs, requirePositive } from './worker-args.js';

const USAGE = 'usage: open-fresh.ts DIR START ROUNDS GAP';
const [dir, startText, roundsText, gapText] = parseWorkerArgs().positional;
if (!dir || !startText) fail(USAGE);
const rounds = requirePositive(roundsText, 'ROUNDS', USAGE);
const gap = requirePositive(gapText, 'GAP', USAGE);

let opened = 0;
const failures: string[] = [];
for (let round = 0; round < rounds; round += 1) {
  // A busy wait, not a timer: the processes must reach the open within the same millisecond or two.
  const at = Number(startText) + round * gap;
  while (Date.now() < at);
  try {
    const ledger = await openLedger({ spec: `sqlite:${path.join(dir, `r${round}.db`)}` });
    await ledger.close();
    opened += 1;
  } catch (error) {
    failures.push(errorMessage(error));
  }
}
process.stdout.write(`${JSON.stringify({ opened, failures })}\n`);
