/**
 * Appends COUNT dispatches to the ledger at SPEC, one appendDispatch call each.
 *
 *   node --import tsx test/ledger/workers/append.ts SPEC COUNT [--task ID] [--barrier]
 *
 * Prints `done COUNT` when every append returned. Redis: set BATON_NAMESPACE in its environment.
 */
import { openLedger } from '../../../src/ledger/index.js';
import { fail, parseWorkerArgs, requirePositive, startBarrier } from './worker-args.js';

const USAGE = 'usage: append.ts SPEC COUNT [--task ID] [--barrier]';
const args = parseWorkerArgs();
const [spec, countText] = args.positional;
if (!spec) fail(USAGE);
const count = requirePositive(countText, 'COUNT', USAGE);
const task = args.flags.get('task');
const taskId = typeof task === 'string' ? task : `append-${process.pid}`;

const ledger = await openLedger({ spec });
await startBarrier(args);
for (let i = 0; i < count; i += 1) {
  await ledger.appendDispatch({ taskId, attempt: i + 1, provider: `worker-${process.pid}` });
}
await ledger.close();
process.stdout.write(`done ${count}\n`);
