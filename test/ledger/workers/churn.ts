/**
 * Opens, uses and closes a SQLite ledger ROUNDS times while allocating garbage, so that V8 runs many
 * collections while ledger objects are around. With better-sqlite3 12 built for Node 24, one
 * collected statement aborts the process (see src/ledger/sqlite/open-sqlite-database.ts).
 *
 *   node --import tsx test/ledger/workers/churn.ts DIR ROUNDS
 *
 * Prints `done ROUNDS` when every round returned, then exits by itself (event loop empty), which
 * also runs Node's environment cleanup over everything still open.
 */
import path from 'node:path';
import { openLedger } from '../../../src/ledger/index.js';
import { fail, parseWorkerArgs, requirePositive } from './worker-args.js';

const USAGE = 'usage: churn.ts DIR ROUNDS';
const [dir, roundsText] = parseWorkerArgs().positional;
if (!dir) fail(USAGE);
const rounds = requirePositive(roundsText, 'ROUNDS', USAGE);

let garbage: { n: number; text: string }[] = [];
for (let round = 1; round <= rounds; round += 1) {
  // Two files in turn: each round reopens a file an earlier round wrote, as a restarted process would.
  const ledger = await openLedger({ spec: `sqlite:${path.join(dir, `churn-${round % 2}.db`)}` });
  for (let i = 0; i < 20; i += 1) await ledger.appendDispatch({ taskId: `churn-${round}`, attempt: i + 1, provider: 'churn' });
  await ledger.listDispatches({ taskId: `churn-${round}`, limit: 5 });
  // The last round leaves its ledger open: exit must be clean with an open database too.
  if (round < rounds) await ledger.close();
  for (let i = 0; i < 20_000; i += 1) garbage.push({ n: i, text: `x${i}` });
  if (garbage.length > 500_000) garbage = [];
}
process.stdout.write(`done ${rounds}\n`);
