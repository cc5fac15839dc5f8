/**
 * Appends COUNT dispatches to one task with appendNextAttempt, each as a new attempt.
 *
 *   node --import tsx test/ledger/workers/next-attempt.ts SPEC TASK COUNT [--barrier]
 *
 * Prints the attempt numbers it was given as one JSON array. Redis: set BATON_NAMESPACE.
 */
import { openLedger } from '../../../src/ledger/index.js';
import { fail, parseWorkerArgs, requirePositive, startBarrier } from './worker-args.js';

const USAGE = 'usage: next-attempt.ts SPEC TASK COUNT [--barrier]';
const args = parseWorkerArgs();
const [spec, taskId, countText] = args.positional;
if (!spec || !taskId) fail(USAGE);
const count = requirePositive(countText, 'COUNT', USAGE);

const ledger = await openLedger({ spec });
await startBarrier(args);
const attempts: number[] = [];
for (let i = 0; i < count; i += 1) {
  attempts.push((await ledger.appendNextAttempt({ taskId, provider: `worker-${process.pid}`, status: 'running' })).attempt);
}
await ledger.close();
process.stdout.write(`${JSON.stringify(attempts)}\n`);
