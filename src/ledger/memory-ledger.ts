import type { Ledger } from './ledger.js';
import { migrateSchema } from './sqlite/migrations.js';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite/open-sqlite-database.js';
import { SqliteLedger } from './sqlite/sqlite-ledger.js';

/** Tests rarely close their memory ledgers: a collected one gives its database's memory back. */
const unclosed = new FinalizationRegistry<SqliteDatabase>((db) => {
  if (db.open) db.close();
});

/** In-process ledger for tests and examples. */
export interface MemoryLedger extends Ledger {
  readonly backend: 'memory';
}

/**
 * `new MemoryLedger(now?)`: the SQLite ledger on a private `:memory:` database, so it behaves
 * exactly as a file ledger does and nothing touches the disk. Declared by its Ledger interface,
 * so a user's compiler needs no SQLite types.
 */
export const MemoryLedger: new (now?: () => number) => MemoryLedger = class extends SqliteLedger {
  override readonly backend = 'memory';

  constructor(now: () => number = Date.now) {
    const db = openSqliteDatabase(':memory:');
    migrateSchema(db);
    super(db, ':memory:', now);
    unclosed.register(this, db);
  }
};
