export { MemoryLedger } from './memory-ledger.js';
