import path from 'node:path';
import { BatonError, errorMessage } from '../../errors/index.js';
import type { Ledger } from '../ledger.js';

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

/**
 * Wraps every method of a SQLite ledger so that a failure of the database (a lock held past the
 * busy timeout, a read-only file, a full disk, a damaged file) surfaces as a BatonError naming the
 * file and what to do, instead of a bare SqliteError. A Proxy keeps this in one place rather than
 * a try/catch in each of the ~25 methods.
 */
export function translateSqliteErrors(ledger: Ledger, busyTimeoutMs: number): Ledger {
  const translate = (error: unknown): unknown => describeSqliteError(ledger.location, error, busyTimeoutMs) ?? error;
  return new Proxy(ledger, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      // Synchronous by contract (two pragma reads, no lock taken): not wrapped into a promise.
      if (property === 'changeCounters') return (value as () => unknown).bind(target);
      if (property === 'exportLines') {
        return async function* (...args: unknown[]) {
          try {
            yield* (value as (...a: unknown[]) => AsyncIterable<unknown>).apply(target, args);
          } catch (error) {
            throw translate(error);
          }
        };
      }
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          throw translate(error);
        }
      };
    },
  });
}
