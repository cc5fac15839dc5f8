import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BatonError, errorMessage, isBatonError } from '../../errors/index.js';
import type { Ledger } from '../ledger.js';
import { translateLedgerErrors } from '../ledger-errors.js';
import { migrateSchema, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
import { openSqliteDatabase, type SqliteDatabase } from './open-sqlite-database.js';
import { SqliteLedger } from './sqlite-ledger.js';
import { describeSqliteError } from './translate-sqlite-errors.js';

/** @default 5000: how long a writer waits for another process's lock before failing. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

export interface SqliteLedgerOptions {
  /** Create the file and its folder when missing. @default true */
  create?: boolean;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
  /** @default DEFAULT_BUSY_TIMEOUT_MS */
  busyTimeoutMs?: number;
  /**
   * The caller only reads (baton status, baton export): when the file or its folder is not
   * writable, open the existing file read-only instead of failing. @default false
   */
  readOnlyFallback?: boolean;
}

/** WAL pages between automatic checkpoints (see the comment where it is set). */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Opens (and creates or migrates) the SQLite ledger at `file`.
 *
 * Throws NOT_FOUND when the file is missing and `create` is false; LEDGER_CORRUPT when the file is
 * not a SQLite database or not a Baton ledger; LEDGER_TOO_NEW when a newer Baton wrote its schema.
 * In those three cases nothing is written: the checks run before any pragma or migration.
 *
 * @example
 * const ledger = await openSqliteLedger('.baton/agent.db');
 */
export async function openSqliteLedger(file: string, options: SqliteLedgerOptions = {}): Promise<Ledger> {
  if (!existsSync(file)) {
    if (options.create === false) {
      throw new BatonError('NOT_FOUND', `No ledger database at ${file}: run \`baton init\` first or pass another --ledger`, {
        details: { file },
      });
    }
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (error) {
      throw unavailable(file, error);
    }
  } else {
    assertSqliteHeader(file);
    if (options.readOnlyFallback && !isWritable(file)) return openReadOnly(file, options);
  }
  return openAt(file, file, options, false);
}

/** Whether this process may write the file and create SQLite's -wal and -shm beside it. */
function isWritable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(path.dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens an existing ledger without writing anything: no pragma that writes, no migration (an
 * older schema is read as it is). Every write through it fails with the read-only message.
 * SQLite cannot read a WAL database in a folder where it may not create the -shm index, so then
 * it reads a snapshot: a private copy of the file (and its -wal) in a temporary folder, removed
 * on close. Nobody can be writing the original meanwhile without write access to that folder.
 */
function openReadOnly(file: string, options: SqliteLedgerOptions): Ledger {
  try {
    return openAt(file, file, options, true);
  } catch (error) {
    if (isBatonError(error) && error.code !== 'LEDGER_UNAVAILABLE') throw error;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-readonly-'));
  const copy = path.join(dir, path.basename(file));
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const ledger = openAt(copy, file, options, true);
    const close = ledger.close.bind(ledger);
    ledger.close = async () => {
      try {
        await close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    return ledger;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw isBatonError(error) ? error : unavailable(file, error);
  }
}

/** Opens the ledger `file` at `openPath`: the file itself, or (read-only) a snapshot of it. */
function openAt(openPath: string, file: string, options: SqliteLedgerOptions, readOnly: boolean): Ledger {
  let db: SqliteDatabase;
  try {
    db = openSqliteDatabase(openPath, readOnly ? { readonly: true, fileMustExist: true } : undefined);
  } catch (error) {
    throw unavailable(file, error);
  }
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS));
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    assertSupportedVersion(db, file);
    if (!readOnly) {
      // WAL lets readers run beside the writer; NORMAL sync in WAL keeps every committed
      // transaction through a process crash (only an OS crash can lose the last few).
      enterWalMode(db, busyTimeoutMs);
      db.pragma('synchronous = NORMAL');
      // A checkpoint runs inside whichever commit crosses the threshold and costs milliseconds. At
      // SQLite's default (1,000 pages) that is ~1 append in 250, enough to push append p99 past 1 ms;
      // at 10,000 pages (~40 MB of WAL) it is ~1 in 2,500, and cheaper per append because a bigger
      // WAL rewrites the same hot index pages many times before they are copied back once.
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      migrateSchema(db, { now: options.now });
    }
    // Failures of the database name the file and what to do.
    return translateLedgerErrors(
      new SqliteLedger(db, file, options.now),
      (error) => describeSqliteError(file, error, busyTimeoutMs) ?? error,
    );
  } catch (error) {
    db.close();
    if (isBatonError(error)) throw error;
    // A read-only file system shows up only now, at the first write (journal_mode, migration).
    const refused = /^SQLITE_READONLY/.test(String((error as { code?: unknown }).code));
    if (!readOnly && refused && options.readOnlyFallback) return openReadOnly(file, options);
    throw unavailable(file, error, busyTimeoutMs);
  }
}

/** A non-empty file must start with the SQLite magic; an empty one is a new database. */
function assertSqliteHeader(file: string): void {
  const stat = statSync(file);
  if (!stat.isFile()) throw notALedger(file, 'it is not a regular file');
  if (stat.size === 0) return;
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!header.equals(SQLITE_HEADER)) throw notALedger(file, 'it is not a SQLite database');
}

function notALedger(file: string, why: string, cause?: unknown): BatonError {
  return new BatonError(
    'LEDGER_CORRUPT',
    `Ledger ${file} cannot be opened: ${why}. It was left untouched; move it aside or pass another --ledger`,
    { cause, details: { file } },
  );
}

/**
 * Switches a ledger to WAL unless it is there already. SQLite answers a journal-mode change with
 * SQLITE_BUSY at once, without its busy handler, while another process opens the same new file:
 * the change is retried within the busy timeout, as any other locked write would wait.
 */
function enterWalMode(db: SqliteDatabase, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal') return;
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!/^SQLITE_BUSY/.test(String((error as { code?: unknown }).code)) || Date.now() >= deadline) throw error;
      Atomics.wait(PAUSE, 0, 0, pause);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Anything else that stops the open (permissions, a full disk, a lock held too long). */
function unavailable(file: string, cause: unknown, busyTimeoutMs?: number): BatonError {
  const described = describeSqliteError(file, cause, busyTimeoutMs);
  if (described) return described;
  return new BatonError('LEDGER_UNAVAILABLE', `Cannot open ledger ${file}: ${errorMessage(cause)}`, { cause, details: { file } });
}

/** A ledger written by a newer Baton is refused (read-write and read-only alike), not misread. */
function assertSupportedVersion(db: SqliteDatabase, file: string): void {
  let version: number | undefined;
  try {
    version = readSchemaVersion(db);
  } catch (error) {
    // Locked, read-only or unreadable is not "not a ledger": say what it is.
    const storage = describeSqliteError(file, error);
    if (storage && storage.code !== 'LEDGER_CORRUPT') throw storage;
    throw notALedger(file, `SQLite cannot read it (${errorMessage(error)})`, error);
  }
  if (version === undefined) throw notALedger(file, 'it is a SQLite database without a Baton schema_version table');
  if (version > SCHEMA_VERSION) {
    throw new BatonError(
      'LEDGER_TOO_NEW',
      `Ledger ${file} has schema version ${version}, newer than this Baton understands (${SCHEMA_VERSION}): upgrade Baton`,
      { details: { file, version, supported: SCHEMA_VERSION } },
    );
  }
}
