import { applyRecordPatch, decodeCursor, materializeRecord, stripUndefined } from '../defaults.js';
import { newId } from '../ids.js';
import { checkCollection, conflict, notFound } from '../ledger-errors.js';
import type { LedgerRecord, NewRecord, Page, RecordCollection, RecordPatch, RecordQuery } from '../types.js';
import { recordFromRow, recordSql, recordToRow } from './columns.js';
import { pageSize, toPage } from './paging.js';
import { isUniqueViolation, type StatementCache } from './statement-cache.js';

type Row = Record<string, unknown>;

const INSERT_RECORD = `INSERT INTO records (collection, ${recordSql.names}) VALUES (@collection, ${recordSql.params})`;
const REPLACE_RECORD = `INSERT OR REPLACE INTO records (collection, ${recordSql.names}) VALUES (@collection, ${recordSql.params})`;
const SELECT_RECORD = 'SELECT * FROM records WHERE collection = ? AND id = ?';

/** Inserts a plain record; LEDGER_CONFLICT when its id exists in the collection. */
export function createSqliteRecord<T>(
  sql: StatementCache,
  collection: RecordCollection,
  input: NewRecord<T>,
  now: number,
): LedgerRecord<T> {
  checkCollection(collection);
  const id = input.id ?? newId(collection.slice(0, 2));
  const record = materializeRecord(structuredClone(input), id, now);
  try {
    sql.get(INSERT_RECORD).run(recordToRow(collection, record as LedgerRecord));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(collection, id);
    throw error;
  }
  return record;
}

/** Read-modify-write of one record: run it inside an IMMEDIATE transaction. NOT_FOUND when missing. */
export function updateSqliteRecord<T>(
  sql: StatementCache,
  collection: RecordCollection,
  id: string,
  patch: RecordPatch<T>,
  now: number,
): LedgerRecord<T> {
  checkCollection(collection);
  const row = sql.get(SELECT_RECORD).get(collection, id) as Row | undefined;
  if (!row) throw notFound(collection, id);
  const current = recordFromRow<Record<string, unknown>>(row);
  const next = applyRecordPatch(current, patch, now);
  sql.get(REPLACE_RECORD).run(recordToRow(collection, next));
  return next as LedgerRecord<T>;
}

export function getSqliteRecord<T>(sql: StatementCache, collection: RecordCollection, id: string): LedgerRecord<T> | undefined {
  checkCollection(collection);
  const row = sql.get(SELECT_RECORD).get(collection, id) as Row | undefined;
  return row ? recordFromRow<T>(row) : undefined;
}

/** Newest first by (updatedAt, id); each filter combination is one cached statement shape. */
export function listSqliteRecords<T>(sql: StatementCache, collection: RecordCollection, query: RecordQuery): Page<LedgerRecord<T>> {
  checkCollection(collection);
  const limit = pageSize(query.limit);
  const where = ['collection = @collection'];
  const params: Record<string, unknown> = { collection, limit: limit + 1 };
  if (query.status !== undefined) where.push('status = @status');
  if (query.taskId !== undefined) where.push('task_id = @task_id');
  if (query.since !== undefined) where.push('updated_at >= @since');
  if (query.cursor !== undefined) {
    const [updatedAt, id] = decodeCursor(query.cursor);
    where.push('(updated_at, id) < (@cursor_updated_at, @cursor_id)');
    Object.assign(params, { cursor_updated_at: Number(updatedAt), cursor_id: String(id) });
  }
  Object.assign(params, stripUndefined({ status: query.status, task_id: query.taskId, since: query.since }));
  const rows = sql
    .get(`SELECT * FROM records WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT @limit`)
    .all(params) as Row[];
  return toPage(
    rows.map((r) => recordFromRow<T>(r)),
    limit,
    (r) => [r.updatedAt, r.id],
  );
}
