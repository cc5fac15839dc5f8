import path from 'node:path';
import { BatonError, errorMessage } from '../../errors/index.js';

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

const is = (code: string, base: string) => code === base || code.startsWith(`${base}_`);

/**
 * The SQLite failures a user can act on, as BatonErrors that name the database file and say what
 * to do; undefined for anything else. `busyTimeoutMs` is how long a lock was waited for.
 */
export function describeSqliteError(file: string, error: unknown, busyTimeoutMs?: number): BatonError | undefined {
  const code = codeOf(error);
  const said = `"${errorMessage(error)}"`;
  const details = { file, sqliteCode: code };
  if (is(code, 'SQLITE_BUSY') || code === 'SQLITE_LOCKED') {
    return new BatonError(
      'LEDGER_UNAVAILABLE',
      `Ledger ${file} stayed locked by another process for over ${busyTimeoutMs ?? 0} ms; try again, or check for a stuck baton process`,
      { cause: error, details: { ...details, busyTimeoutMs } },
    );
  }
  if (is(code, 'SQLITE_READONLY')) {
    return new BatonError(
      'LEDGER_UNAVAILABLE',
      `Ledger ${file} is read-only for this process (${said}): make the file and its folder ${path.dirname(file)} writable by this user (SQLite also writes ${path.basename(file)}-wal and -shm next to it), or pass --ledger a writable copy. Commands that only read (baton status, baton export) still work on it.`,
      { cause: error, details },
    );
  }
  if (code === 'SQLITE_FULL') {
    return new BatonError(
      'LEDGER_FULL',
      `Ledger ${file}: the disk is full (${said}); the write was rolled back and the ledger is unchanged. Free space on the disk holding ${path.dirname(file)} (or move the ledger with baton export / baton import), then run the command again.`,
      { cause: error, details },
    );
  }
  if (is(code, 'SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new BatonError(
      'LEDGER_CORRUPT',
      `Ledger ${file} is damaged (${said}); nothing more was written to it. Copy it aside first, then recover what is readable (sqlite3 ${file} ".recover" | sqlite3 recovered.db) or restore your last baton export, and pass --ledger the recovered file.`,
      { cause: error, details },
    );
  }
  if (is(code, 'SQLITE_IOERR') || is(code, 'SQLITE_CANTOPEN')) {
    return new BatonError(
      'LEDGER_UNAVAILABLE',
      `Ledger ${file} could not be read or written (${said}): check that the disk holding ${path.dirname(file)} is mounted, writable and healthy, then try again.`,
      { cause: error, details },
    );
  }
  return undefined;
}
