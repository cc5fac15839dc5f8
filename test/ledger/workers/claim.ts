/**
 * Claims TASK as OWNER ROUNDS times on the ledger at SPEC. Each time it wins, it appends
 * `enter OWNER` to EVENTS, holds the task briefly, appends `leave OWNER`, then releases. Appends to
 * one file are ordered, so two owners holding at once show up as two `enter` lines in a row, with
 * no clock involved. Prints a JSON summary: {"owner","holds","refused","lostLease"}.
 *
 *   node --import tsx test/ledger/workers/claim.ts SPEC TASK OWNER ROUNDS EVENTS [--lease MS] [--barrier]
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { openLedger } from '../../../src/ledger/index.js';
import { fail, parseWorkerArgs, requirePositive, startBarrier } from './worker-args.js';

const USAGE = 'usage: claim.ts SPEC TASK OWNER ROUNDS EVENTS [--lease MS] [--barrier]';
const args = parseWorkerArgs();
const [spec, taskId, owner, roundsText, events] = args.positional;
if (!spec || !taskId || !owner || !events) fail(USAGE);
const rounds = requirePositive(roundsText, 'ROUNDS', USAGE);
const leaseText = args.flags.get('lease');
// A lease of 0 disables the protection on purpose: the test uses it to prove overlaps get caught.
const leaseMs = typeof leaseText === 'string' ? Number(leaseText) : 5_000;

const ledger = await openLedger({ spec });
const log = openSync(events, 'a');
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const hold = () => new Promise<void>((resolve) => setTimeout(resolve, 1));
await startBarrier(args);

let refused = 0;
let lostLease = 0;
for (let holds = 0; holds < rounds;) {
  const result = await ledger.claimTask(taskId, owner, leaseMs);
  if (!result.ok) {
    refused += 1;
    await yieldTurn();
    continue;
  }
  writeSync(log, `enter ${owner}\n`);
  await hold();
  if (leaseMs > 0 && (await ledger.getClaim(taskId))?.owner !== owner) lostLease += 1;
  writeSync(log, `leave ${owner}\n`);
  await ledger.releaseTask(taskId, owner);
  holds += 1;
  await yieldTurn();
}
closeSync(log);
await ledger.close();
process.stdout.write(`${JSON.stringify({ owner, holds: rounds, refused, lostLease })}\n`);
