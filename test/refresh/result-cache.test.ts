import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Ledger, MemoryLedger, openLedger } from '../../src/ledger/index.js';
import { GitCache, ledgerVersion, type RefreshResult, refreshContext, ResultCache, trackLedgerWrites } from '../../src/refresh/index.js';
import { makeRepo } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A git repository with a real SQLite ledger (the backend the cache keys on), seeded with one task. */
async function setUp(options: { gitTtlMs?: number; maxAgeMs?: number } = {}) {
  const repo = makeRepo({ 'src/app.ts': 'export const a = 1;\n' });
  cleanups.push(repo.cleanup);
  const file = path.join(repo.dir, '.baton', 'agent.db');
  const raw = await openLedger({ spec: `sqlite:${file}` });
  cleanups.push(() => raw.close());
  await raw.createTask({ id: 't1', title: 'Add CSV export', status: 'in_progress' });
  const ledger = trackLedgerWrites(raw);
  const gitCache = new GitCache(options.gitTtlMs === undefined ? {} : { ttlMs: options.gitTtlMs });
  const resultCache = new ResultCache<unknown>(options.maxAgeMs === undefined ? {} : { maxAgeMs: options.maxAgeMs });
  const refresh = (extra: Partial<Parameters<typeof refreshContext>[0]> = {}) =>
    refreshContext({ workspace: repo.dir, ledger, gitCache, resultCache, sessionId: 's1', ...extra });
  return { repo, file, raw, ledger, gitCache, resultCache, refresh };
}

const status = (result: RefreshResult) => result.metadata.cache.result;

describe('the shared result cache of refresh_context', () => {
  it('answers an unchanged call from the cache with the same text, while still recording the call', async () => {
    const { refresh, raw } = await setUp();
    const first = await refresh();
    const second = await refresh();
    expect(status(first)).toBe('miss');
    expect(status(second)).toBe('hit');
    expect(second.text).toBe(first.text);
    // The bookkeeping writes (session record, audit) happen on a hit too, and do not invalidate.
    const audits = await raw.listRecords('audit');
    expect(audits.items.length).toBe(2);
    expect(status(await refresh())).toBe('hit');
  });

  it('misses when HEAD moves (a commit)', async () => {
    const { refresh, repo } = await setUp();
    await refresh();
    writeFileSync(path.join(repo.dir, 'src/b.ts'), 'export const b = 2;\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'add b');
    const after = await refresh();
    expect(status(after)).toBe('miss');
    expect(after.text).toContain('add b');
  });

  it('misses when the index changes (git add)', async () => {
    const { refresh, repo } = await setUp();
    await refresh();
    writeFileSync(path.join(repo.dir, 'src/staged.ts'), 'export const s = 1;\n');
    repo.git('add', 'src/staged.ts');
    const after = await refresh();
    expect(status(after)).toBe('miss');
    expect(after.text).toContain('src/staged.ts');
  });

  it('sees an unstaged edit once the git cache entry expires (the working tree is re-read at bounded frequency)', async () => {
    const { refresh, repo } = await setUp({ gitTtlMs: 40 });
    await refresh();
    writeFileSync(path.join(repo.dir, 'src/app.ts'), 'export const a = 2;\n');
    await new Promise((resolve) => setTimeout(resolve, 60));
    const after = await refresh();
    expect(status(after)).toBe('miss');
    expect(after.text).toContain('src/app.ts');
  });

  it('misses after a ledger write through this handle', async () => {
    const { refresh, ledger } = await setUp();
    await refresh();
    await ledger.updateTask('t1', { title: 'Add CSV and JSON export' });
    const after = await refresh();
    expect(status(after)).toBe('miss');
    expect(after.text).toContain('Add CSV and JSON export');
  });

  it('misses after a write by another connection to the same SQLite file', async () => {
    const { refresh, file } = await setUp();
    await refresh();
    const other = await openLedger({ spec: `sqlite:${file}` });
    await other.appendDispatch({
      taskId: 't1',
      attempt: 1,
      provider: 'gemini',
      status: 'failed',
      outcome: 'rate_limited',
      result: 'quota hit at noon',
    });
    await other.close();
    const after = await refresh();
    expect(status(after)).toBe('miss');
    expect(after.text).toContain('gemini');
  });

  it('misses after a write through the raw handle that bypassed the wrapper', async () => {
    const { refresh, raw } = await setUp();
    await refresh();
    await raw.createRecord('debt', { status: 'open', taskId: 't1', data: { title: 'flaky CSV quoting', severity: 'high' } });
    expect(status(await refresh())).toBe('miss');
  });

  it('keys on the format, the task ids and the options', async () => {
    const { refresh, ledger } = await setUp();
    await ledger.createTask({ id: 't2', title: 'Second task', status: 'pending' });
    await refresh();
    expect(status(await refresh({ format: 'minimal' }))).toBe('miss');
    expect(status(await refresh({ format: 'minimal' }))).toBe('hit');
    const other = await refresh({ taskId: 't2' });
    expect(status(other)).toBe('miss');
    expect(other.text).toContain('Second task');
    expect(status(await refresh({ taskId: 't2' }))).toBe('hit');
    expect(status(await refresh({ taskId: 't2', dispatchLimit: 1 }))).toBe('miss');
  });

  it('keys on the session state: a session whose HEAD moved gets its own warning, not a shared result', async () => {
    const { refresh, repo } = await setUp();
    await refresh({ sessionId: 'old' });
    repo.git('commit', '-q', '--allow-empty', '-m', 'move HEAD');
    await refresh({ sessionId: 'fresh' }); // fills the cache for sessions without a warning
    const old = await refresh({ sessionId: 'old' });
    expect(status(old)).toBe('miss');
    expect(old.metadata.warnings.join('\n')).toMatch(/HEAD moved/);
  });

  it('shares one computation between concurrent calls for the same inputs', async () => {
    const { refresh, resultCache } = await setUp();
    const results = await Promise.all([refresh(), refresh(), refresh()]);
    expect(results.map(status).sort()).toEqual(['miss', 'shared', 'shared']);
    expect(resultCache.misses).toBe(1);
  });

  it('expires entries after maxAgeMs', async () => {
    const { refresh } = await setUp({ maxAgeMs: 30 });
    await refresh();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(status(await refresh())).toBe('miss');
  });

  it('leaves alone ledgers without change counters and calls asking for more than the key holds', async () => {
    const { refresh } = await setUp();
    const memory: Ledger = trackLedgerWrites(new MemoryLedger());
    expect(ledgerVersion(memory)).toBeUndefined();
    expect(status(await refresh({ ledger: memory }))).toBeUndefined();
    await refresh();
    expect(status(await refresh({ since: '2020-01-01T00:00:00Z' }))).toBeUndefined();
    expect(status(await refresh({ env: {} }))).toBeUndefined();
  });
});
