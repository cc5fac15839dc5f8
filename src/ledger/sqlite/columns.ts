import type { Breaker, Claim, Dispatch, LedgerRecord, RecordCollection, Task } from '../types.js';

/** How one record field is stored: its column, and whether it is JSON (arrays, objects). */
type Column = readonly [field: string, column: string, kind: 'value' | 'json'];

const TASK_COLUMNS: readonly Column[] = [
  ['id', 'id', 'value'],
  ['title', 'title', 'value'],
  ['instructions', 'instructions', 'value'],
  ['intent', 'intent', 'value'],
  ['acceptanceCriteria', 'acceptance_criteria', 'json'],
  ['status', 'status', 'value'],
  ['priority', 'priority', 'value'],
  ['difficulty', 'difficulty', 'value'],
  ['mode', 'mode', 'value'],
  ['dependsOn', 'depends_on', 'json'],
  ['resultSummary', 'result_summary', 'value'],
  ['blockReason', 'block_reason', 'value'],
  ['options', 'options', 'json'],
  ['links', 'links', 'json'],
  ['createdAt', 'created_at', 'value'],
  ['updatedAt', 'updated_at', 'value'],
  ['completedAt', 'completed_at', 'value'],
];

const DISPATCH_COLUMNS: readonly Column[] = [
  ['seq', 'seq', 'value'],
  ['id', 'id', 'value'],
  ['taskId', 'task_id', 'value'],
  ['attempt', 'attempt', 'value'],
  ['provider', 'provider', 'value'],
  ['model', 'model', 'value'],
  ['mode', 'mode', 'value'],
  ['status', 'status', 'value'],
  ['outcome', 'outcome', 'value'],
  ['exitCode', 'exit_code', 'value'],
  ['signal', 'signal', 'value'],
  ['agentProcess', 'agent_process', 'json'],
  ['filesCreated', 'files_created', 'json'],
  ['filesUpdated', 'files_updated', 'json'],
  ['filesDeleted', 'files_deleted', 'json'],
  ['validationErrors', 'validation_errors', 'json'],
  ['injectedContext', 'injected_context', 'value'],
  ['contextType', 'context_type', 'value'],
  ['promptDigest', 'prompt_digest', 'value'],
  ['promptPreview', 'prompt_preview', 'value'],
  ['result', 'result', 'value'],
  ['tokensIn', 'tokens_in', 'value'],
  ['tokensOut', 'tokens_out', 'value'],
  ['claimedBy', 'claimed_by', 'value'],
  ['resetAt', 'reset_at', 'value'],
  ['startedAt', 'started_at', 'value'],
  ['finishedAt', 'finished_at', 'value'],
  ['durationMs', 'duration_ms', 'value'],
];

const BREAKER_COLUMNS: readonly Column[] = [
  ['provider', 'provider', 'value'],
  ['state', 'state', 'value'],
  ['until', 'until', 'value'],
  ['failureCount', 'failure_count', 'value'],
  ['reason', 'reason', 'value'],
  ['probeOwner', 'probe_owner', 'value'],
  ['generation', 'generation', 'value'],
  ['updatedAt', 'updated_at', 'value'],
];

const CLAIM_COLUMNS: readonly Column[] = [
  ['taskId', 'task_id', 'value'],
  ['owner', 'owner', 'value'],
  ['leaseUntil', 'lease_until', 'value'],
];

const RECORD_COLUMNS: readonly Column[] = [
  ['id', 'id', 'value'],
  ['status', 'status', 'value'],
  ['taskId', 'task_id', 'value'],
  ['createdAt', 'created_at', 'value'],
  ['updatedAt', 'updated_at', 'value'],
  ['data', 'data', 'json'],
];

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
