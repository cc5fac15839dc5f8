/** Test doubles that ship with Baton, so users' tests can script behaviour instead of mocking. */
export { MemoryLedger } from '../ledger/index.js';
