import type { Breaker, Claim, Dispatch, LedgerRecord, RecordCollection, Task } from '../types.js';

/** How one record field is stored: its column, and whether it is JSON (arrays, objects). */
type Column = readonly [field: string, column: string, kind: 'value' | 'json'];

/**
 * A table's columns in order, from its fields separated by spaces: each field's column is its
 * snake_case (`taskId` in `task_id`), and a field marked `:json` is stored as JSON text.
 */
function columns(...fields: string[]): readonly Column[] {
  return fields
    .join(' ')
    .split(/\s+/)
    .map((spec) => {
      const [field = '', kind] = spec.split(':');
      return [field, field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), kind === 'json' ? 'json' : 'value'];
    });
}

const TASK_COLUMNS = columns(
  'id title instructions intent acceptanceCriteria:json status priority difficulty mode dependsOn:json',
  'resultSummary blockReason options:json links:json createdAt updatedAt completedAt',
);
const DISPATCH_COLUMNS = columns(
  'seq id taskId attempt provider model mode status outcome exitCode signal agentProcess:json',
  'filesCreated:json filesUpdated:json filesDeleted:json validationErrors:json injectedContext contextType',
  'promptDigest promptPreview result tokensIn tokensOut claimedBy resetAt startedAt finishedAt durationMs',
);
const BREAKER_COLUMNS = columns('provider state until failureCount reason probeOwner generation updatedAt');
const CLAIM_COLUMNS = columns('taskId owner leaseUntil');
const RECORD_COLUMNS = columns('id status taskId createdAt updatedAt data:json');

type Row = Record<string, unknown>;

function toRow(columns: readonly Column[], value: object): Row {
  const source = value as Record<string, unknown>;
  const row: Row = {};
  for (const [field, column, kind] of columns) {
    const v = source[field];
    row[column] = v === undefined ? null : kind === 'json' ? JSON.stringify(v) : v;
  }
  return row;
}

/** NULL columns become absent fields, matching the memory ledger's shape exactly. */
function fromRow<T>(columns: readonly Column[], row: Row): T {
  const out: Record<string, unknown> = {};
  for (const [field, column, kind] of columns) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    out[field] = kind === 'json' ? JSON.parse(v as string) : v;
  }
  return out as T;
}

/** The same mapping over a raw row (values in column order), which better-sqlite3 builds faster. */
function fromValues<T>(columns: readonly Column[], values: readonly unknown[]): T {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i += 1) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const [field, , kind] = columns[i] as Column;
    out[field] = kind === 'json' ? JSON.parse(v as string) : v;
  }
  return out as T;
}

/** `col1, col2, ...` and `@col1, @col2, ...` for an INSERT of every column. */
function insertParts(columns: readonly Column[]): { names: string; params: string } {
  return {
    names: columns.map(([, c]) => c).join(', '),
    params: columns.map(([, c]) => `@${c}`).join(', '),
  };
}

export const taskSql = insertParts(TASK_COLUMNS);
export const dispatchSql = insertParts(DISPATCH_COLUMNS);
export const breakerSql = insertParts(BREAKER_COLUMNS);
export const recordSql = insertParts(RECORD_COLUMNS);

export const taskToRow = (task: Task): Row => toRow(TASK_COLUMNS, task);
export const taskFromRow = (row: Row): Task => fromRow(TASK_COLUMNS, row);
export const dispatchToRow = (dispatch: Dispatch): Row => toRow(DISPATCH_COLUMNS, dispatch);
export const dispatchFromRow = (row: Row): Dispatch => fromRow(DISPATCH_COLUMNS, row);
/** For rows selected as `SELECT ${dispatchSql.names}` through a raw statement. */
export const dispatchFromValues = (values: readonly unknown[]): Dispatch => fromValues(DISPATCH_COLUMNS, values);
export const breakerToRow = (breaker: Breaker): Row => toRow(BREAKER_COLUMNS, breaker);
export const breakerFromRow = (row: Row): Breaker => fromRow(BREAKER_COLUMNS, row);
export const claimToRow = (claim: Claim): Row => toRow(CLAIM_COLUMNS, claim);
export const claimFromRow = (row: Row): Claim => fromRow(CLAIM_COLUMNS, row);
export const recordToRow = (collection: RecordCollection, record: LedgerRecord): Row => ({
  ...toRow(RECORD_COLUMNS, record),
  collection,
});
export const recordFromRow = <T>(row: Row): LedgerRecord<T> => fromRow(RECORD_COLUMNS, row);
