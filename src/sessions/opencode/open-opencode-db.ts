import type Database from 'better-sqlite3';

/*
 * Every better-sqlite3 object opened here stays reachable until the process exits, for the reason
 * src/ledger/sqlite/open-sqlite-database.ts gives (better-sqlite3 12 built against newer Node headers
 * aborts the process when V8 collects one of its objects). Only `prepare` is used, never `iterate`.
 */
const RETAINED: object[] = [];

/** One prepared query over OpenCode's database, kept alive (see above). */
export interface OpencodeQuery {
  all(...params: unknown[]): unknown[];
}

/** A read-only connection to OpenCode's SQLite database (`opencode.db`). */
export interface OpencodeDb {
  query(sql: string): OpencodeQuery;
  close(): void;
}

/**
 * Opens OpenCode's database read-only (it must exist); better-sqlite3 (native) loads on the first
 * call. OpenCode keeps it in WAL mode and writes while it runs: a reader sees the last commit.
 */
export async function openOpencodeDb(file: string): Promise<OpencodeDb> {
  const { default: Sqlite } = (await import('better-sqlite3')) as { default: typeof Database };
  const db = new Sqlite(file, { readonly: true, fileMustExist: true, timeout: 2000 });
  RETAINED.push(db);
  return {
    query(sql) {
      const statement = db.prepare(sql);
      RETAINED.push(statement);
      return { all: (...params) => statement.all(...params) };
    },
    close: () => db.close(),
  };
}
