import Database from 'better-sqlite3';

/**
 * Every better-sqlite3 object Baton creates stays reachable until the process exits.
 *
 * Why: better-sqlite3 12 built against Node ≥ 24.19 headers aborts the whole process when V8
 * garbage-collects one of its native objects ("Assertion failed: (env) != nullptr" in
 * `node::RemoveEnvironmentCleanupHook`, called from `Statement::~Statement()`). Since nodejs/node#63642
 * the destructor of `node::ObjectWrap`, inlined into the addon from those headers, looks up the
 * current Node environment, and a garbage-collection weak callback runs with none entered. Objects
 * that are still reachable at exit are freed by Node's environment cleanup hooks instead, where the
 * lookup succeeds; so nothing is ever left for the collector. Closing a database finalizes its SQLite
 * statements (the file handles and memory go), only the small wrapper objects stay.
 *
 * The cost is a few dozen small objects per opened database: Baton prepares each SQL text once per
 * connection (StatementCache) and opens a ledger once per process, or once per workspace in the MCP
 * server. It applies on every Node version, because what matters is the headers the addon was
 * compiled against, which the running process cannot see.
 */
const RETAINED: object[] = [];

export type SqliteDatabase = Database.Database;
export type SqliteDatabaseOptions = Database.Options;

/**
 * Opens a better-sqlite3 database whose statements are never garbage-collected (see above).
 * `prepare` and `pragma` keep what they create; use them, never `iterate` or `backup`, whose objects
 * are not kept. Same errors as `new Database(file, options)`.
 *
 * @example
 * const db = openSqliteDatabase('.baton/agent.db', { readonly: true });
 */
export function openSqliteDatabase(file: string, options?: SqliteDatabaseOptions): SqliteDatabase {
  const db = new Database(file, options);
  RETAINED.push(db);
  const prepare = db.prepare.bind(db);
  const retainedPrepare = (source: string): Database.Statement => {
    const statement = prepare(source);
    RETAINED.push(statement);
    return statement;
  };
  db.prepare = retainedPrepare as SqliteDatabase['prepare'];
  // better-sqlite3's own pragma() prepares a statement it then drops; this one goes through the
  // retaining prepare. A pragma that returns nothing (e.g. `synchronous = NORMAL`) yields [] as before.
  db.pragma = (source: string, pragmaOptions?: Database.PragmaOptions): unknown => {
    const statement = retainedPrepare(`PRAGMA ${source}`);
    if (!statement.reader) {
      statement.run();
      return pragmaOptions?.simple ? undefined : [];
    }
    return pragmaOptions?.simple ? statement.pluck().get() : statement.all();
  };
  return db;
}

/** How many better-sqlite3 objects this process keeps alive (for tests and diagnostics). */
export function countRetainedSqliteObjects(): number {
  return RETAINED.length;
}
