export { DEFAULT_BUSY_TIMEOUT_MS, openSqliteLedger } from './open-sqlite-ledger.js';
export { countRetainedSqliteObjects, openSqliteDatabase } from './open-sqlite-database.js';
export { MIGRATIONS, migrateSchema, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
export { DEFAULT_PAGE_SIZE } from './paging.js';
export { SqliteLedger } from './sqlite-ledger.js';
export type { Migration } from './migrations.js';
export type { SqliteDatabase, SqliteDatabaseOptions } from './open-sqlite-database.js';
export type { SqliteLedgerOptions } from './open-sqlite-ledger.js';
