export * from './light.js';
export { materializeDispatch, materializeTask } from './defaults.js';
export { checkTaskId, MAX_TASK_ID_LENGTH, newId } from './ids.js';
export { MemoryLedger } from './memory/index.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REDIS_NAMESPACE,
  DEFAULT_SQLITE_PATH,
  MAX_TIMEOUT_MS,
  openLedger,
  parseLedgerSpec,
} from './open-ledger.js';
export { DISPATCH_STATUSES, OUTCOME_KINDS, RECORD_COLLECTIONS, TASK_STATUSES } from './types.js';
export { isBreakerCapable, isClaimCapable, isFullLedger, isRecordCapable, isTransferCapable } from './ledger.js';
export type { Ledger, LedgerBreakers, LedgerClaims, LedgerCore, LedgerRecords, LedgerTransfer } from './ledger.js';
export type { LedgerSpec, OpenLedgerOptions } from './open-ledger.js';
export type * from './types.js';
export { formatLedgerLine, parseLedgerLines } from './ledger-lines.js';
export { openSqliteDataVersion } from './sqlite-data-version.js';
