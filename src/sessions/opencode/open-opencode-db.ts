import type Database from 'better-sqlite3';

/*
 * Every better-sqlite3 object opened here stays reachable until the process exits, for the reason
 * src/ledger/sqlite/open-sqlite-database.ts gives (better-sqlite3 12 built against newer Node headers
 * aborts the process when V8 collects one of its objects). Only `prepare` is used, never `iterate`.
 */
const RETAINED: object[] = [];

/**
 * Opens OpenCode's database read-only (it must exist); better-sqlite3 (native) loads on the first
 * call. OpenCode keeps it in WAL mode and writes while it runs: a reader sees the last commit.
 */
export async function openOpencodeDb(file: string) {
  const { default: Sqlite } = (await import('better-sqlite3')) as { default: typeof Database };
  const db = new Sqlite(file, { readonly: true, fileMustExist: true, timeout: 2000 });
  RETAINED.push(db);
  return {
    /** One prepared query, kept alive (see above). */
    query(sql: string): { all(...params: unknown[]): unknown[] } {
      const statement = db.prepare(sql);
      RETAINED.push(statement);
      return { all: (...params) => statement.all(...params) };
    },
    close: (): void => {
      db.close();
    },
  };
}

/** A read-only connection to OpenCode's SQLite database (`opencode.db`). */
export type OpencodeDb = Awaited<ReturnType<typeof openOpencodeDb>>;
