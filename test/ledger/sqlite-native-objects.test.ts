import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { countRetainedSqliteObjects, openSqliteDatabase } from '../../src/ledger/sqlite/index.js';
import { expectClean, startWorker } from './fixtures/worker-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'baton-sqlite-native-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('better-sqlite3 objects and garbage collection', () => {
  // On Node 24 (better-sqlite3 12 built against its headers) the worker aborted with SIGABRT
  // ("Assertion failed: (env) != nullptr") as soon as V8 collected one dropped statement; on Node 20
  // and 22 it passes either way, so CI runs this file on all three.
  it('a process that opens, uses and closes ledgers under garbage-collection pressure exits cleanly', { timeout: 120_000 }, async () => {
    const worker = startWorker('churn', [dir, '60']);
    await expectClean(worker);
    expect(worker.lines).toContain('done 60');
  });

  it('keeps every statement a ledger prepares, including those behind pragma()', async () => {
    const before = countRetainedSqliteObjects();
    const ledger = await openLedger({ spec: `sqlite:${path.join(dir, 'count.db')}` });
    await ledger.appendDispatch({ taskId: 't', attempt: 1, provider: 'p' });
    await ledger.close();
    const afterLedger = countRetainedSqliteObjects();
    // The database, its pragmas, the migration reads and the statement cache's entries.
    expect(afterLedger - before).toBeGreaterThan(5);

    const raw = openSqliteDatabase(path.join(dir, 'count.db'));
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('synchronous = NORMAL')).toEqual([]);
    expect(raw.pragma('busy_timeout')).toEqual([{ timeout: 5000 }]);
    expect(raw.prepare('SELECT count(*) FROM dispatches').pluck().get()).toBe(1);
    raw.close();
    expect(countRetainedSqliteObjects() - afterLedger).toBe(5);
  });
});
