import type Database from 'better-sqlite3';
import { BatonError, errorMessage } from '../../errors/index.js';
import { redactLedgerLine } from '../redact-for-ledger.js';
import type { LedgerLine } from '../types.js';
import { RECORD_COLLECTIONS } from '../types.js';
import {
  breakerFromRow,
  breakerSql,
  breakerToRow,
  claimFromRow,
  claimToRow,
  dispatchFromRow,
  dispatchSql,
  dispatchToRow,
  recordFromRow,
  recordSql,
  recordToRow,
  taskFromRow,
  taskSql,
  taskToRow,
} from './columns.js';
import type { StatementCache } from './statement-cache.js';
import { describeSqliteError } from './translate-sqlite-errors.js';

/** Rows read per query while exporting, so a million dispatches never sit in memory at once. */
export const EXPORT_CHUNK_ROWS = 1_000;

type Row = Record<string, unknown>;

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

/** Every record, in the same stable order as the memory ledger: kind, then key. */
export function* exportSqliteLines(sql: StatementCache): Generator<LedgerLine> {
  for (const row of chunked(sql, 'SELECT * FROM tasks WHERE id > ? ORDER BY id LIMIT ?', 'id', '')) {
    yield { kind: 'task', record: taskFromRow(row) };
  }
  for (const row of chunked(sql, 'SELECT * FROM dispatches WHERE seq > ? ORDER BY seq LIMIT ?', 'seq', -1)) {
    yield { kind: 'dispatch', record: dispatchFromRow(row) };
  }
  for (const row of chunked(sql, 'SELECT * FROM breakers WHERE provider > ? ORDER BY provider LIMIT ?', 'provider', '')) {
    yield { kind: 'breaker', record: breakerFromRow(row) };
  }
  for (const row of chunked(sql, 'SELECT * FROM claims WHERE task_id > ? ORDER BY task_id LIMIT ?', 'task_id', '')) {
    yield { kind: 'claim', record: claimFromRow(row) };
  }
  const records = 'SELECT * FROM records WHERE collection = ? AND id > ? ORDER BY id LIMIT ?';
  for (const collection of RECORD_COLLECTIONS) {
    for (const row of chunked(sql, records, 'id', '', [collection])) {
      yield { kind: 'record', collection, record: recordFromRow(row) };
    }
  }
}

/**
 * Writes lines in one IMMEDIATE transaction: either every line lands or none does. Existing ids
 * are replaced. A line the schema refuses throws IMPORT_INVALID naming its (1-based) number.
 */
export function importSqliteLines(db: Database.Database, sql: StatementCache, lines: readonly LedgerLine[], file = db.name): number {
  const write = (line: LedgerLine): void => {
    switch (line.kind) {
      case 'task':
        sql.get(`INSERT OR REPLACE INTO tasks (${taskSql.names}) VALUES (${taskSql.params})`).run(taskToRow(line.record));
        return;
      case 'dispatch':
        sql.get(`INSERT OR REPLACE INTO dispatches (${dispatchSql.names}) VALUES (${dispatchSql.params})`).run(dispatchToRow(line.record));
        return;
      case 'breaker':
        sql.get(`INSERT OR REPLACE INTO breakers (${breakerSql.names}) VALUES (${breakerSql.params})`).run(breakerToRow(line.record));
        return;
      case 'claim':
        sql
          .get('INSERT OR REPLACE INTO claims (task_id, owner, lease_until) VALUES (@task_id, @owner, @lease_until)')
          .run(claimToRow(line.record));
        return;
      case 'record':
        if (!RECORD_COLLECTIONS.includes(line.collection)) {
          throw new Error(`unknown collection "${String(line.collection)}"`);
        }
        sql
          .get(`INSERT OR REPLACE INTO records (collection, ${recordSql.names}) VALUES (@collection, ${recordSql.params})`)
          .run(recordToRow(line.collection, line.record));
        return;
      default:
        throw new Error(`unknown kind "${String((line as { kind?: unknown }).kind)}"`);
    }
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
