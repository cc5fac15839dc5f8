import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Ledger, MemoryLedger } from '../../src/ledger/index.js';
import { GitCache, readGitState, refreshContext, SNAPSHOT_DIR } from '../../src/refresh/index.js';
import { makeRepo } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A repository whose committed copy of src/app.ts is gone from the object store: status works, diff cannot. */
function repoWithMissingBlob() {
  const repo = makeRepo({ 'src/app.ts': 'export const a = 1;\n' });
  cleanups.push(repo.cleanup);
  const blob = repo.git('rev-parse', 'HEAD:src/app.ts').trim();
  rmSync(path.join(repo.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
  writeFileSync(path.join(repo.dir, 'src/app.ts'), 'export const a = 2;\nexport const b = 3;\n');
  return repo;
}

describe('degradations named in metadata.warnings (issue 12 item 6)', () => {
  it('a git diff that fails leaves a warning instead of silently missing line counts', async () => {
    const repo = repoWithMissingBlob();
    const state = await readGitState(repo.dir, { includeDiff: true });
    expect(state.changedFiles.map((f) => f.path)).toContain('src/app.ts');
    expect(state.warnings?.join('\n')).toMatch(/Git diff --numstat failed .*line counts of changed files are missing/);
    expect(state.warnings?.join('\n')).toMatch(/Git diff failed .*the full diff is missing/);

    const result = await refreshContext({ workspace: repo.dir, ledger: new MemoryLedger(), gitCache: new GitCache() });
    expect(result.metadata.warnings.join('\n')).toMatch(/Git diff --numstat failed/);
  });

  it('a repository without commits gets no diff warning (there is nothing to diff against)', async () => {
    const repo = makeRepo({ 'README.md': '# x\n' });
    cleanups.push(repo.cleanup);
    repo.git('update-ref', '-d', 'HEAD');
    const state = await readGitState(repo.dir);
    expect(state.head).toBeUndefined();
    expect(state.warnings).toBeUndefined();
  });

  it('a saved snapshot that cannot be read is named, and the delta says it is time-based', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const ledger = new MemoryLedger();
    await ledger.createTask({ id: 't1', title: 'Task one', status: 'in_progress' });
    const saved = await refreshContext({ workspace: repo.dir, ledger, gitCache: new GitCache(), saveSnapshot: true });
    const id = saved.metadata.snapshot_id as string;
    writeFileSync(path.join(repo.dir, SNAPSHOT_DIR, `${id}.json`), '{ not json');
    const later = await refreshContext({ workspace: repo.dir, ledger, gitCache: new GitCache(), since: String(Date.now() + 1000) });
    expect(later.metadata.warnings.join('\n')).toMatch(
      new RegExp(`Reading snapshot ${id} failed .*time-based, so removals cannot be reported`),
    );
  });

  it('a snapshot lookup that fails is named too', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    // A stand-in for a ledger whose snapshot index cannot be read (no real backend fails on demand
    // for just this query); every other call goes to a real MemoryLedger.
    const memory = new MemoryLedger();
    const ledger = new Proxy(memory, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop === 'listRecords') {
          return (collection: string, ...rest: unknown[]) =>
            collection === 'snapshots'
              ? Promise.reject(new Error('snapshot index unreadable'))
              : (value as (...a: unknown[]) => unknown).call(target, collection, ...rest);
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Ledger;
    const result = await refreshContext({ workspace: repo.dir, ledger, gitCache: new GitCache(), since: '2020-01-01T00:00:00Z' });
    expect(result.metadata.warnings).toContain(
      'Snapshot lookup failed (snapshot index unreadable): the delta since 2020-01-01T00:00:00Z is time-based, so removals cannot be reported.',
    );
  });
});
