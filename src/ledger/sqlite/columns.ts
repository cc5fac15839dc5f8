import type { Breaker, Claim, Dispatch, LedgerRecord, Task } from '../types.js';

/** How one record field is stored: its column, and whether it is JSON (arrays, objects). */
type Column = readonly [field: string, column: string, kind: 'value' | 'json'];

export type Row = Record<string, unknown>;

/** A table's SQL over every column, and the mapping of its rows to and from records. */
export type Table<T> = ReturnType<typeof table<T>>;

/**
 * A table from its fields in order, separated by spaces: each field's column is its snake_case
 * (`taskId` in `task_id`), and a field marked `:json` is stored as JSON text. `leading` names
 * columns written before the fields that no record carries (a record's collection).
 */
function table<T>(name: string, fields: string, leading: readonly string[] = []) {
  const columns = fields.split(/\s+/).map((spec): Column => {
    const [field = '', kind] = spec.split(':');
    return [field, field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), kind === 'json' ? 'json' : 'value'];
  });
  const names = columns.map(([, column]) => column);
  const written = [...leading, ...names];
  const values = `(${written.join(', ')}) VALUES (${written.map((c) => `@${c}`).join(', ')})`;
  /** The record of a raw row (values in column order, which better-sqlite3 builds faster); NULL columns become absent fields. */
  const fromValues = (row: readonly unknown[]): T => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i += 1) {
      const v = row[i];
      if (v === null || v === undefined) continue;
      const [field, , kind] = columns[i] as Column;
      out[field] = kind === 'json' ? JSON.parse(v as string) : v;
    }
    return out as T;
  };
  return {
    /** `col1, col2, ...` in column order: a raw `SELECT ${names}` reads with fromValues. */
    names: names.join(', '),
    /** An INSERT of every column from named parameters (`@task_id`). */
    insert: `INSERT INTO ${name} ${values}`,
    /** The same INSERT, overwriting the row with the same key. */
    replace: `INSERT OR REPLACE INTO ${name} ${values}`,
    toRow: (value: T): Row => {
      const source = value as Record<string, unknown>;
      const row: Row = {};
      for (const [field, column, kind] of columns) {
        const v = source[field];
        row[column] = v === undefined ? null : kind === 'json' ? JSON.stringify(v) : v;
      }
      return row;
    },
    fromRow: (row: Row) => fromValues(names.map((column) => row[column])),
    fromValues,
  };
}

export const TASKS = table<Task>(
  'tasks',
  `id title instructions intent acceptanceCriteria:json status priority difficulty mode dependsOn:json
   resultSummary blockReason options:json links:json createdAt updatedAt completedAt`,
);
export const DISPATCHES = table<Dispatch>(
  'dispatches',
  `seq id taskId attempt provider model mode status outcome exitCode signal agentProcess:json
   filesCreated:json filesUpdated:json filesDeleted:json validationErrors:json injectedContext contextType
   promptDigest promptPreview result tokensIn tokensOut claimedBy resetAt startedAt finishedAt durationMs`,
);
export const BREAKERS = table<Breaker>('breakers', 'provider state until failureCount reason probeOwner generation updatedAt');
export const CLAIMS = table<Claim>('claims', 'taskId owner leaseUntil');
/** Rows carry their collection: `{ ...RECORDS.toRow(record), collection }`. */
export const RECORDS = table<LedgerRecord>('records', 'id status taskId createdAt updatedAt data:json', ['collection']);
