export { openSqliteLedger } from './open-sqlite-ledger.js';
export { countRetainedSqliteObjects, openSqliteDatabase } from './open-sqlite-database.js';
export { MIGRATIONS, migrateSchema, SCHEMA_VERSION } from './migrations.js';
