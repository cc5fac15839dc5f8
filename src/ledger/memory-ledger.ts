import { migrateSchema } from './sqlite/migrations.js';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite/open-sqlite-database.js';
import { SqliteLedger } from './sqlite/sqlite-ledger.js';

/** Tests rarely close their memory ledgers: a collected one gives its database's memory back. */
const unclosed = new FinalizationRegistry<SqliteDatabase>((db) => {
  if (db.open) db.close();
});

/**
 * In-process ledger for tests and examples: the SQLite ledger on a private `:memory:` database,
 * so it behaves exactly as a file ledger does and nothing touches the disk.
 */
export class MemoryLedger extends SqliteLedger {
  override readonly backend = 'memory';

  constructor(now: () => number = Date.now) {
    const db = openSqliteDatabase(':memory:');
    migrateSchema(db);
    super(db, ':memory:', now);
    unclosed.register(this, db);
  }
}
