import type Database from 'better-sqlite3';
import { BatonError, errorMessage } from '../../errors/index.js';
import { redactLedgerLine } from '../redact-for-ledger.js';
import type { LedgerLine } from '../types.js';
import { RECORD_COLLECTIONS } from '../types.js';
import { BREAKERS, CLAIMS, DISPATCHES, RECORDS, type Row, type Table, TASKS } from './columns.js';
import type { StatementCache } from './statement-cache.js';
import { describeSqliteError } from './translate-sqlite-errors.js';

/** Rows read per query while exporting, so a million dispatches never sit in memory at once. */
export const EXPORT_CHUNK_ROWS = 1_000;

/**
 * Reads a table in key order, one chunk at a time. Keyset pages instead of one open iterator,
 * because better-sqlite3 refuses other statements on a connection while an iterator is open and
 * the consumer may use the ledger between lines.
 */
function* chunked(sql: StatementCache, text: string, keyColumn: string, first: unknown, extra: unknown[] = []): Generator<Row> {
  let after = first;
  for (;;) {
    const rows = sql.get(text).all(...extra, after, EXPORT_CHUNK_ROWS) as Row[];
    yield* rows;
    const last = rows[rows.length - 1];
    if (rows.length < EXPORT_CHUNK_ROWS || last === undefined) return;
    after = last[keyColumn];
  }
}

/** Every record in a stable order: kind, then key (tasks and records by id, dispatches by seq). */
export function* exportSqliteLines(sql: StatementCache): Generator<LedgerLine> {
  const rows = (table: string, key: string, first: unknown) =>
    chunked(sql, `SELECT * FROM ${table} WHERE ${key} > ? ORDER BY ${key} LIMIT ?`, key, first);
  for (const row of rows('tasks', 'id', '')) yield { kind: 'task', record: TASKS.fromRow(row) };
  for (const row of rows('dispatches', 'seq', -1)) yield { kind: 'dispatch', record: DISPATCHES.fromRow(row) };
  for (const row of rows('breakers', 'provider', '')) yield { kind: 'breaker', record: BREAKERS.fromRow(row) };
  for (const row of rows('claims', 'task_id', '')) yield { kind: 'claim', record: CLAIMS.fromRow(row) };
  const records = 'SELECT * FROM records WHERE collection = ? AND id > ? ORDER BY id LIMIT ?';
  for (const collection of RECORD_COLLECTIONS) {
    for (const row of chunked(sql, records, 'id', '', [collection])) yield { kind: 'record', collection, record: RECORDS.fromRow(row) };
  }
}

/** The table each kind of line is written to. */
const TABLES: { readonly [K in LedgerLine['kind']]: Table<Extract<LedgerLine, { kind: K }>['record']> } = {
  task: TASKS,
  dispatch: DISPATCHES,
  breaker: BREAKERS,
  claim: CLAIMS,
  record: RECORDS,
};

/**
 * Writes lines in one IMMEDIATE transaction: either every line lands or none does. Existing ids
 * are replaced. A line the schema refuses throws IMPORT_INVALID naming its (1-based) number.
 */
export function importSqliteLines(db: Database.Database, sql: StatementCache, lines: readonly LedgerLine[], file = db.name): number {
  const write = (line: LedgerLine): void => {
    if (!Object.hasOwn(TABLES, line.kind)) throw new Error(`unknown kind "${String(line.kind)}"`);
    if (line.kind === 'record' && !RECORD_COLLECTIONS.includes(line.collection)) {
      throw new Error(`unknown collection "${String(line.collection)}"`);
    }
    const table = TABLES[line.kind];
    const row = table.toRow(line.record as never);
    sql.get(table.replace).run(line.kind === 'record' ? { ...row, collection: line.collection } : row);
  };
  db.transaction(() => {
    lines.map(redactLedgerLine).forEach((line, index) => {
      try {
        write(line);
      } catch (error) {
        // A full disk or a damaged file is the database's failure, not the line's.
        const storage = describeSqliteError(file, error);
        if (storage && storage.code !== 'LEDGER_UNAVAILABLE') throw storage;
        throw new BatonError('IMPORT_INVALID', `Import line ${index + 1} (${line.kind}) was refused: ${errorMessage(error)}`, {
          cause: error,
          details: { line: index + 1, kind: line.kind },
        });
      }
    });
  }).immediate();
  return lines.length;
}
