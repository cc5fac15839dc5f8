/**
 * SQLite's `PRAGMA data_version` of a ledger file, on a separate read-only connection: it changes
 * whenever any other connection commits, costs a few microseconds, and needs no file watching.
 * better-sqlite3 (native) loads on the first call, not with ledger/index.ts.
 */
export async function openSqliteDataVersion(file: string): Promise<{ read: () => string; close: () => void }> {
  const { openSqliteDatabase } = await import('./sqlite/index.js');
  const db = openSqliteDatabase(file, { readonly: true, fileMustExist: true });
  const statement = db.prepare('PRAGMA data_version').pluck();
  return { read: () => String(statement.get()), close: () => db.close() };
}
