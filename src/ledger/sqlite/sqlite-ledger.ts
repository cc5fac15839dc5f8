import type Database from 'better-sqlite3';
import {
  applyDispatchPatch,
  applyRecordPatch,
  applyTaskPatch,
  decodeCursor,
  emptyStatusCounts,
  encodeCursor,
  materializeBreaker,
  materializeDispatch,
  materializeRecord,
  materializeTask,
  pageSize,
  stripUndefined,
} from '../defaults.js';
import { checkCollection, notFound } from '../ledger-errors.js';
import type { Ledger } from '../ledger.js';
// The contract's vocabulary (every method's argument and result types), shared by the three backends.
import type * as L from '../types.js';
import { BREAKERS, CLAIMS, DISPATCHES, RECORDS, type Row, TASKS } from './columns.js';
import { insertNew, StatementCache } from './statement-cache.js';
import { exportSqliteLines, importSqliteLines } from './sqlite-transfer.js';

/** Dispatch reads select columns by name and run raw, the hot read path (DISPATCHES.fromValues). */
const SELECT_DISPATCHES = `SELECT ${DISPATCHES.names} FROM dispatches`;
const MAX_SEQ = Number.MAX_SAFE_INTEGER;
const SELECT_RECORD = 'SELECT * FROM records WHERE collection = ? AND id = ?';

/** Rows were fetched with limit + 1, so an extra row means another page exists. */
function toPage<T>(items: T[], limit: number, key: (item: T) => (string | number)[]): L.Page<T> {
  if (items.length <= limit) return { items };
  const page = items.slice(0, limit);
  return { items: page, nextCursor: encodeCursor(key(page[page.length - 1] as T)) };
}

/**
 * The embedded ledger over one better-sqlite3 connection (open it with openSqliteLedger).
 * Methods are async to match the Ledger interface, but each runs synchronously; read-modify-write
 * steps run in IMMEDIATE transactions so that other processes on the same file never interleave.
 */
export class SqliteLedger implements Ledger {
  readonly backend: 'sqlite' | 'memory' = 'sqlite';
  private readonly sql: StatementCache;

  constructor(
    private readonly db: Database.Database,
    readonly location: string,
    private readonly now: () => number = Date.now,
  ) {
    this.sql = new StatementCache(db);
  }

  async createTask(input: L.NewTask): Promise<L.Task> {
    const task = materializeTask(structuredClone(input), this.now());
    insertNew('task', task.id, () => this.sql.get(TASKS.insert).run(TASKS.toRow(task)));
    return task;
  }

  async upsertTask(input: L.NewTask): Promise<L.Task> {
    const task = materializeTask(structuredClone(input), this.now());
    const { changes } = this.sql.get(`${TASKS.insert} ON CONFLICT (id) DO NOTHING`).run(TASKS.toRow(task));
    return changes === 1 ? task : ((await this.getTask(input.id)) as L.Task);
  }

  async updateTask(id: string, patch: L.TaskPatch): Promise<L.Task> {
    return this.db
      .transaction(() => {
        const row = this.sql.get('SELECT * FROM tasks WHERE id = ?').get(id) as Row | undefined;
        if (!row) throw notFound('task', id);
        const next = applyTaskPatch(TASKS.fromRow(row), structuredClone(patch), this.now());
        this.sql.get(TASKS.replace).run(TASKS.toRow(next));
        return next;
      })
      .immediate();
  }

  async getTask(id: string): Promise<L.Task | undefined> {
    return (await this.getTasks([id]))[0];
  }

  async getTasks(ids: readonly string[]): Promise<(L.Task | undefined)[]> {
    const read = this.sql.get('SELECT * FROM tasks WHERE id = ?');
    return ids.map((id) => {
      const row = read.get(id) as Row | undefined;
      return row ? TASKS.fromRow(row) : undefined;
    });
  }

  async listTasks(query: L.TaskQuery = {}): Promise<L.Page<L.Task>> {
    const limit = pageSize(query.limit);
    const newest = query.order === 'newest';
    const start = newest ? [Number.MAX_SAFE_INTEGER, ''] : [-Number.MAX_SAFE_INTEGER, ''];
    const [createdAt, id] = query.cursor ? decodeCursor(query.cursor) : start;
    const params = { created_at: Number(createdAt), id: String(id), limit: limit + 1 };
    // Either way the (status, created_at, id) and (created_at, id) indexes are read in order.
    const after = newest
      ? '(created_at, id) < (@created_at, @id) ORDER BY created_at DESC, id DESC LIMIT @limit'
      : '(created_at, id) > (@created_at, @id) ORDER BY created_at, id LIMIT @limit';
    const statuses = query.status === undefined ? [] : ([] as L.TaskStatus[]).concat(query.status);
    // One status reads the (status, created_at, id) index in order; several need a sort.
    const rows =
      query.status === undefined
        ? this.sql.get(`SELECT * FROM tasks WHERE ${after}`).all(params)
        : statuses.length === 1
          ? this.sql.get(`SELECT * FROM tasks WHERE status = @status AND ${after}`).all({ ...params, status: statuses[0] })
          : this.sql
              .get(`SELECT * FROM tasks WHERE status IN (SELECT value FROM json_each(@statuses)) AND ${after}`)
              .all({ ...params, statuses: JSON.stringify(statuses) });
    return toPage((rows as Row[]).map(TASKS.fromRow), limit, (t) => [t.createdAt, t.id]);
  }

  async countTasksByStatus(): Promise<Record<L.TaskStatus, number>> {
    const counts = emptyStatusCounts();
    const rows = this.sql.get('SELECT status, count(*) AS n FROM tasks GROUP BY status').all() as { status: L.TaskStatus; n: number }[];
    for (const { status, n } of rows) counts[status] = n;
    return counts;
  }

  async recentCompletedTasks(limit: number): Promise<L.Task[]> {
    const rows = this.sql
      .get("SELECT * FROM tasks WHERE status = 'completed' ORDER BY completed_at DESC, id DESC LIMIT ?")
      .all(limit) as Row[];
    return rows.map(TASKS.fromRow);
  }

  async appendDispatch(input: L.NewDispatch): Promise<L.Dispatch> {
    return this.insertDispatch(input);
  }

  private insertDispatch(input: L.NewDispatch): L.Dispatch {
    const draft = materializeDispatch(structuredClone(input), 0, this.now());
    // A NULL seq lets SQLite assign max(seq) + 1 inside the write lock, so seqs from many
    // processes never collide.
    const { lastInsertRowid } = insertNew('dispatch', draft.id, () =>
      this.sql.get(DISPATCHES.insert).run({ ...DISPATCHES.toRow(draft), seq: null }),
    );
    return { ...draft, seq: Number(lastInsertRowid) };
  }

  async appendNextAttempt(input: L.NewAttemptDispatch): Promise<L.Dispatch> {
    // BEGIN IMMEDIATE takes the write lock before reading, so no other process can read the same
    // highest attempt between this read and this insert.
    return this.db
      .transaction(() => {
        const row = this.sql.get('SELECT MAX(attempt) AS highest FROM dispatches WHERE task_id = ?').get(input.taskId) as {
          highest: number | null;
        };
        return this.insertDispatch({ ...input, attempt: (row.highest ?? 0) + 1 });
      })
      .immediate();
  }

  async updateDispatch(id: string, patch: L.DispatchPatch): Promise<L.Dispatch> {
    return this.db
      .transaction(() => {
        const row = this.sql.get('SELECT * FROM dispatches WHERE id = ?').get(id) as Row | undefined;
        if (!row) throw notFound('dispatch', id);
        const current = DISPATCHES.fromRow(row);
        const next = applyDispatchPatch(current, structuredClone(patch));
        this.sql.get(DISPATCHES.replace).run(DISPATCHES.toRow(next));
        return next;
      })
      .immediate();
  }

  async getDispatch(id: string): Promise<L.Dispatch | undefined> {
    const row = this.sql.get('SELECT * FROM dispatches WHERE id = ?').get(id) as Row | undefined;
    return row ? DISPATCHES.fromRow(row) : undefined;
  }

  async lastDispatches(taskId: string, limit: number): Promise<L.Dispatch[]> {
    const rows = this.sql.raw(`${SELECT_DISPATCHES} WHERE task_id = ? ORDER BY seq DESC LIMIT ?`).all(taskId, limit) as unknown[][];
    return rows.map(DISPATCHES.fromValues);
  }

  async recentDispatches(limit: number): Promise<L.Dispatch[]> {
    const rows = this.sql.raw(`${SELECT_DISPATCHES} ORDER BY seq DESC LIMIT ?`).all(limit) as unknown[][];
    return rows.map(DISPATCHES.fromValues);
  }

  async listDispatches(query: L.DispatchQuery = {}): Promise<L.Page<L.Dispatch>> {
    const limit = pageSize(query.limit);
    const where = ['seq < @before'];
    if (query.taskId !== undefined) where.push('task_id = @task_id');
    if (query.status !== undefined) where.push('status = @status');
    // Without ANALYZE statistics SQLite may pick the status index even when a task is named; a
    // task's dispatches are few, so its index is always the better start.
    const from = query.taskId === undefined ? SELECT_DISPATCHES : `${SELECT_DISPATCHES} INDEXED BY dispatches_task_seq`;
    const rows = this.sql.raw(`${from} WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT @limit`).all({
      before: query.cursor ? Number(decodeCursor(query.cursor)[0]) : MAX_SEQ,
      limit: limit + 1,
      ...(query.taskId !== undefined && { task_id: query.taskId }),
      ...(query.status !== undefined && { status: query.status }),
    }) as unknown[][];
    return toPage(rows.map(DISPATCHES.fromValues), limit, (d) => [d.seq]);
  }

  async countDispatches(): Promise<number> {
    return this.sql.get('SELECT count(*) FROM dispatches').pluck().get() as number;
  }

  async markInterrupted(filter: { taskId?: string } = {}): Promise<L.Dispatch[]> {
    const set = "status = 'interrupted', outcome = 'interrupted', finished_at = @now, duration_ms = @now - started_at";
    const where = filter.taskId === undefined ? "status = 'running'" : "status = 'running' AND task_id = @task_id";
    const rows = this.sql
      .get(`UPDATE dispatches SET ${set} WHERE ${where} RETURNING *`)
      .all({ now: this.now(), ...(filter.taskId !== undefined && { task_id: filter.taskId }) }) as Row[];
    return rows.map(DISPATCHES.fromRow).sort((a, b) => a.seq - b.seq);
  }

  async claimTask(taskId: string, owner: string, leaseMs: number): Promise<L.ClaimResult> {
    return this.db
      .transaction((): L.ClaimResult => {
        // Read the clock only once the write lock is held: a lease judged before waiting on the
        // lock could already be stale.
        const now = this.now();
        const row = this.sql.get('SELECT * FROM claims WHERE task_id = ?').get(taskId) as Row | undefined;
        const current = row ? CLAIMS.fromRow(row) : undefined;
        if (current && current.owner !== owner && current.leaseUntil > now) return { ok: false, holder: current };
        const claim: L.Claim = { taskId, owner, leaseUntil: now + leaseMs };
        this.sql.get(CLAIMS.replace).run(CLAIMS.toRow(claim));
        return { ok: true, claim };
      })
      .immediate();
  }

  async releaseTask(taskId: string, owner: string): Promise<boolean> {
    return this.sql.get('DELETE FROM claims WHERE task_id = ? AND owner = ?').run(taskId, owner).changes === 1;
  }

  async getClaim(taskId: string): Promise<L.Claim | undefined> {
    const row = this.sql.get('SELECT * FROM claims WHERE task_id = ? AND lease_until > ?').get(taskId, this.now()) as Row | undefined;
    return row ? CLAIMS.fromRow(row) : undefined;
  }

  async getBreaker(provider: string): Promise<L.Breaker | undefined> {
    const row = this.sql.get('SELECT * FROM breakers WHERE provider = ?').get(provider) as Row | undefined;
    return row ? BREAKERS.fromRow(row) : undefined;
  }

  async listBreakers(): Promise<L.Breaker[]> {
    return (this.sql.get('SELECT * FROM breakers ORDER BY provider').all() as Row[]).map(BREAKERS.fromRow);
  }

  async compareAndSetBreaker(provider: string, expectedGeneration: number, next: L.BreakerWrite): Promise<L.Breaker | undefined> {
    const breaker = materializeBreaker(provider, expectedGeneration + 1, structuredClone(next), this.now());
    const row = BREAKERS.toRow(breaker);
    // One statement each way: the generation check and the write cannot be split by another writer.
    const { changes } =
      expectedGeneration === 0
        ? this.sql.get(`${BREAKERS.insert} ON CONFLICT (provider) DO NOTHING`).run(row)
        : this.sql
            .get(
              `UPDATE breakers SET state = @state, until = @until, failure_count = @failure_count, reason = @reason,
               probe_owner = @probe_owner, generation = @generation, updated_at = @updated_at
               WHERE provider = @provider AND generation = @expected`,
            )
            .run({ ...row, expected: expectedGeneration });
    return changes === 1 ? breaker : undefined;
  }

  async createRecord<T>(collection: L.RecordCollection, input: L.NewRecord<T>): Promise<L.LedgerRecord<T>> {
    checkCollection(collection);
    const record = materializeRecord(structuredClone(input), collection, this.now());
    insertNew(collection, record.id, () => this.sql.get(RECORDS.insert).run({ ...RECORDS.toRow(record as L.LedgerRecord), collection }));
    return record;
  }

  async updateRecord<T>(collection: L.RecordCollection, id: string, patch: L.RecordPatch<T>): Promise<L.LedgerRecord<T>> {
    checkCollection(collection);
    return this.db
      .transaction(() => {
        const row = this.sql.get(SELECT_RECORD).get(collection, id) as Row | undefined;
        if (!row) throw notFound(collection, id);
        const next = applyRecordPatch(RECORDS.fromRow(row), patch, this.now());
        this.sql.get(RECORDS.replace).run({ ...RECORDS.toRow(next), collection });
        return next as L.LedgerRecord<T>;
      })
      .immediate();
  }

  async getRecord<T>(collection: L.RecordCollection, id: string): Promise<L.LedgerRecord<T> | undefined> {
    checkCollection(collection);
    const row = this.sql.get(SELECT_RECORD).get(collection, id) as Row | undefined;
    return row ? (RECORDS.fromRow(row) as L.LedgerRecord<T>) : undefined;
  }

  /** Newest first by (updatedAt, id); each filter combination is one cached statement shape. */
  async listRecords<T>(collection: L.RecordCollection, query: L.RecordQuery = {}): Promise<L.Page<L.LedgerRecord<T>>> {
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
    const rows = this.sql
      .get(`SELECT * FROM records WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT @limit`)
      .all(params) as Row[];
    return toPage(rows.map(RECORDS.fromRow) as L.LedgerRecord<T>[], limit, (r) => [r.updatedAt, r.id]);
  }

  async *exportLines(): AsyncIterable<L.LedgerLine> {
    yield* exportSqliteLines(this.sql);
  }

  async importLines(lines: readonly L.LedgerLine[]): Promise<number> {
    return importSqliteLines(this.db, this.sql, lines, this.location);
  }

  /**
   * Change counters for caches (refresh/ledger-version.ts): `external` is `PRAGMA data_version`,
   * which moves when another connection commits; `own` is `total_changes()`, the rows this
   * connection has changed. Two cheap reads, no table touched. A memory ledger has none: every
   * fresh one would start at the same counts, so a cache keyed on them could mix two ledgers up.
   */
  changeCounters(): { external: number; own: number } | undefined {
    if (this.backend === 'memory') return undefined;
    return {
      external: this.sql.get('PRAGMA data_version').pluck().get() as number,
      own: this.sql.get('SELECT total_changes()').pluck().get() as number,
    };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
