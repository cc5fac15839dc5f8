import { MemoryLedger } from '../../src/ledger/index.js';
import { describeLedgerContract } from './contract.js';

describeLedgerContract('memory', async () => ({ ledger: new MemoryLedger(), cleanup: async () => {} }));
