import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type BatonError, isBatonError } from '../../src/errors/index.js';
import { openLedger } from '../../src/ledger/index.js';
import { migrateSchema, openSqliteDatabase, openSqliteLedger, SCHEMA_VERSION } from '../../src/ledger/sqlite/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'baton-sqlite-open-'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function openError(spec: string, create?: boolean): Promise<BatonError> {
  try {
    const ledger = await openLedger({ spec, ...(create !== undefined && { create }) });
    await ledger.close();
  } catch (error) {
    if (isBatonError(error)) return error;
    throw error;
  }
  throw new Error('expected openLedger to fail');
}

describe('opening a SQLite ledger', () => {
  it('creates .baton/agent.db under cwd by default, in WAL mode', async () => {
    vi.stubEnv('BATON_LEDGER', undefined);
    const ledger = await openLedger({ cwd: dir });
    expect(ledger.backend).toBe('sqlite');
    expect(ledger.location).toBe(path.join(dir, '.baton', 'agent.db'));
    await ledger.createTask({ id: 't1', title: 'persisted' });
    await ledger.close();
    const raw = openSqliteDatabase(path.join(dir, '.baton', 'agent.db'), { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    const again = await openLedger({ spec: `sqlite:${path.join(dir, '.baton', 'agent.db')}`, create: false });
    expect((await again.getTask('t1'))?.title).toBe('persisted');
    await again.close();
  });

  it('creates an index for every listed query', async () => {
    const file = path.join(dir, 'indexes.db');
    await (await openLedger({ spec: `sqlite:${file}` })).close();
    const raw = openSqliteDatabase(file, { readonly: true });
    const plan = (sql: string, ...params: unknown[]) =>
      (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan("SELECT * FROM tasks WHERE status = 'pending' AND (created_at, id) > (0, '') ORDER BY created_at, id LIMIT 5")).toMatch(
      /USING INDEX tasks_status_created/,
    );
    expect(plan("SELECT * FROM tasks WHERE status = 'completed' ORDER BY completed_at DESC, id DESC LIMIT 5")).toMatch(
      /USING INDEX tasks_status_completed/,
    );
    expect(plan("SELECT * FROM dispatches WHERE task_id = 't' ORDER BY seq DESC LIMIT 2")).toMatch(/USING INDEX dispatches_task_seq/);
    expect(plan("SELECT * FROM dispatches WHERE status = 'running'")).toMatch(/USING INDEX dispatches_status_seq/);
    expect(plan('SELECT * FROM dispatches ORDER BY seq DESC LIMIT 100')).not.toMatch(/TEMP B-TREE/);
    expect(plan("SELECT * FROM records WHERE collection = 'debt' ORDER BY updated_at DESC, id DESC LIMIT 5")).toMatch(
      /USING INDEX records_updated/,
    );
    expect(plan("SELECT * FROM records WHERE collection = 'debt' AND status = 'open' ORDER BY updated_at DESC, id DESC")).toMatch(
      /USING INDEX records_status/,
    );
    expect(plan("SELECT * FROM records WHERE collection = 'debt' AND task_id = 't' ORDER BY updated_at DESC, id DESC")).toMatch(
      /USING INDEX records_task/,
    );
    raw.close();
  });

  it('with create: false, refuses a missing file with NOT_FOUND and creates nothing', async () => {
    const file = path.join(dir, 'missing', 'agent.db');
    const error = await openError(`sqlite:${file}`, false);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain(file);
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it.each([
    ['a text file', Buffer.from('{"this is": "not a database"}\n'.repeat(200))],
    ['random bytes', Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 256))],
    ['a SQLite header over garbage', Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4096, 0xab)])],
  ])('refuses %s with LEDGER_CORRUPT naming the file, and leaves it byte-for-byte unchanged', async (_, bytes) => {
    const file = path.join(dir, 'not-a-db.db');
    await writeFile(file, bytes);
    const before = digest(file);
    const error = await openError(`sqlite:${file}`);
    expect(error.code).toBe('LEDGER_CORRUPT');
    expect(error.message).toContain(file);
    expect(digest(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a directory with LEDGER_CORRUPT naming it', async () => {
    const error = await openError(`sqlite:${dir}`);
    expect(error.code).toBe('LEDGER_CORRUPT');
    expect(error.message).toContain(dir);
  });

  it('reports a file it cannot create as LEDGER_UNAVAILABLE naming it', async () => {
    const blocker = path.join(dir, 'plain-file');
    await writeFile(blocker, 'not a folder');
    const file = path.join(blocker, 'agent.db');
    const error = await openError(`sqlite:${file}`);
    expect(error.code).toBe('LEDGER_UNAVAILABLE');
    expect(error.message).toContain(file);
  });

  it("refuses another program's SQLite database with LEDGER_CORRUPT and leaves it unchanged", async () => {
    const file = path.join(dir, 'other.db');
    const raw = openSqliteDatabase(file);
    raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')");
    raw.close();
    const before = digest(file);
    const error = await openError(`sqlite:${file}`);
    expect(error.code).toBe('LEDGER_CORRUPT');
    expect(error.message).toContain(file);
    expect(digest(file)).toBe(before);
  });

  it('refuses a schema newer than the code with LEDGER_TOO_NEW naming file and both versions, writing nothing', async () => {
    const file = path.join(dir, 'future.db');
    const ledger = await openLedger({ spec: `sqlite:${file}` });
    await ledger.createTask({ id: 't1', title: 'from the future' });
    await ledger.close();
    const raw = openSqliteDatabase(file);
    raw.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)').run(SCHEMA_VERSION + 7, 'future', 1);
    raw.pragma('journal_mode = DELETE');
    raw.close();
    const before = digest(file);

    const error = await openError(`sqlite:${file}`);
    expect(error.code).toBe('LEDGER_TOO_NEW');
    expect(error.message).toContain(file);
    expect(error.message).toContain(String(SCHEMA_VERSION + 7));
    expect(error.message).toContain(String(SCHEMA_VERSION));
    expect(digest(file)).toBe(before);
    const check = openSqliteDatabase(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('migrates an older database forward and keeps its data', async () => {
    const file = path.join(dir, 'v1.db');
    const raw = openSqliteDatabase(file);
    expect(migrateSchema(raw, { target: 1 })).toBe(1);
    raw
      .prepare(
        `INSERT INTO tasks (id, title, instructions, intent, acceptance_criteria, status, priority, depends_on, options, links, created_at, updated_at)
         VALUES ('old', 'Old task', '', '', '[]', 'pending', 1, '["x"]', '{"enable_pre_context":false}', '{}', 10, 10)`,
      )
      .run();
    raw.close();

    const ledger = await openLedger({ spec: `sqlite:${file}` });
    expect(await ledger.getTask('old')).toMatchObject({ title: 'Old task', dependsOn: ['x'], options: { enable_pre_context: false } });
    await ledger.close();
    const after = openSqliteDatabase(file, { readonly: true });
    expect(after.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
    expect(after.prepare("SELECT name FROM sqlite_master WHERE name = 'records_task'").pluck().get()).toBe('records_task');
    after.close();
  });
});

describe('a SQLite ledger locked by another process', () => {
  it('fails with LEDGER_UNAVAILABLE naming the file once the busy timeout passes, and works after', async () => {
    const file = path.join(dir, 'locked.db');
    const ledger = await openSqliteLedger(file, { busyTimeoutMs: 100 });
    const other = openSqliteDatabase(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      let caught: unknown;
      try {
        await ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'p' });
      } catch (error) {
        caught = error;
      }
      expect(isBatonError(caught, 'LEDGER_UNAVAILABLE')).toBe(true);
      expect((caught as Error).message).toContain(file);
      expect(isBatonError(await ledger.claimTask('t1', 'a', 1_000).catch((e: unknown) => e), 'LEDGER_UNAVAILABLE')).toBe(true);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await ledger.claimTask('t1', 'a', 1_000)).ok).toBe(true);
    expect(await ledger.countDispatches()).toBe(0);
    await ledger.close();
  });
});
