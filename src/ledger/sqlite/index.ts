export { DEFAULT_BUSY_TIMEOUT_MS, openSqliteLedger } from './open-sqlite-ledger.js';
export { MIGRATIONS, migrateSchema, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
export { DEFAULT_PAGE_SIZE } from './paging.js';
export { SqliteLedger } from './sqlite-ledger.js';
export type { Migration } from './migrations.js';
export type { SqliteLedgerOptions } from './open-sqlite-ledger.js';
