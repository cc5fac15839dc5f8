import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { describeLedgerContract } from './contract.js';

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'baton-sqlite-contract-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeLedgerContract('sqlite', async () => {
  n += 1;
  const spec = `sqlite:${path.join(dir, `ledger-${n}.db`)}`;
  const ledger = await openLedger({ spec });
  return { ledger, cleanup: () => ledger.close(), shared: { spec, env: {} } };
});
