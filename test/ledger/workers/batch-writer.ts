/**
 * Writes batches of BATCH dispatches forever, each batch one importLines call (one transaction),
 * and prints `committed N` after each batch has returned. A test kills it with SIGKILL at a random
 * moment, then checks that every batch it saw committed is in the ledger, and no partial batch.
 *
 *   node --import tsx test/ledger/workers/batch-writer.ts SPEC BATCH [--task ID] [--batches MAX]
 */
import { type LedgerLine, newId, openLedger } from '../../../src/ledger/index.js';
import { fail, parseWorkerArgs, requirePositive } from './worker-args.js';

const USAGE = 'usage: batch-writer.ts SPEC BATCH [--task ID] [--batches MAX]';
const args = parseWorkerArgs();
const [spec, batchText] = args.positional;
if (!spec) fail(USAGE);
const batch = requirePositive(batchText, 'BATCH', USAGE);
const maxText = args.flags.get('batches');
const maxBatches = typeof maxText === 'string' ? requirePositive(maxText, '--batches', USAGE) : Number.POSITIVE_INFINITY;
const task = args.flags.get('task');
const taskId = typeof task === 'string' ? task : 'batch-writer';

const ledger = await openLedger({ spec });
let seq = (await ledger.recentDispatches(1))[0]?.seq ?? 0;
for (let n = 1; n <= maxBatches; n += 1) {
  const lines: LedgerLine[] = [];
  for (let i = 0; i < batch; i += 1) {
    seq += 1;
    lines.push({
      kind: 'dispatch',
      record: {
        id: newId('d'),
        seq,
        taskId,
        attempt: n,
        provider: 'batch-writer',
        status: 'completed',
        filesCreated: [`batch-${n}/file-${i}.ts`],
        filesUpdated: [],
        filesDeleted: [],
        validationErrors: [],
        result: 'x'.repeat(200),
        startedAt: Date.now(),
      },
    });
  }
  await ledger.importLines(lines);
  process.stdout.write(`committed ${n}\n`);
}
await ledger.close();
