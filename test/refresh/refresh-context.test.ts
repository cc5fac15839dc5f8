import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Ledger, MemoryLedger } from '../../src/ledger/index.js';
import { GitCache, listSnapshots, refreshContext, refreshTasks, resolveInsideWorkspace } from '../../src/refresh/index.js';
import { FAKE } from '../redact/fake-secrets.js';
import { makeRepo, tempDir, writeFiles, type Loose } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function seeded(): Promise<MemoryLedger> {
  const ledger = new MemoryLedger();
  await ledger.createTask({
    id: 't1',
    title: 'Add CSV export',
    status: 'in_progress',
    acceptanceCriteria: [{ description: 'CSV tests pass' }],
  });
  await ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'claude', status: 'completed', outcome: 'ok', result: 'half done' });
  return ledger;
}

function repo(files?: Record<string, string>) {
  const r = makeRepo(files);
  cleanups.push(r.cleanup);
  return r;
}

describe('refreshContext degradation (§6.5)', () => {
  it('returns a partial context with a warning outside a git repository', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const result = await refreshContext({ workspace: dir, ledger: await seeded(), gitCache: new GitCache() });
    expect(result.metadata.warnings.join('\n')).toMatch(/Git status failed: .*not a git repository/);
    expect(result.metadata.sources).not.toContain('git');
    expect((result.context as Loose).current_task.id).toBe('t1');
  });

  it('returns git and files with a warning when the ledger fails', async () => {
    const r = repo();
    const broken = new Proxy(new MemoryLedger(), {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return () => Promise.reject(new Error('connection refused'));
      },
    }) as Ledger;
    const result = await refreshContext({ workspace: r.dir, ledger: broken, gitCache: new GitCache() });
    expect(result.metadata.warnings).toContain('Ledger unavailable: connection refused');
    expect(result.metadata.sources).toContain('git');
    expect((result.context as Loose).git_status.branch).toBe('main');
  });

  it('treats missing .agent folders as empty, without warnings', async () => {
    const r = repo();
    const result = await refreshContext({ workspace: r.dir, ledger: await seeded(), format: 'detailed', gitCache: new GitCache() });
    expect(result.metadata.warnings).toEqual([]);
    expect(result.metadata.sources).not.toContain('task_artifacts');
  });

  it('warns about an unreadable tracking log and still returns the rest', async () => {
    const r = repo();
    writeFiles(r.dir, { '.agent/tasks/t1_csv/README.md': '# CSV' });
    // A folder where a log file is expected fails to read even for root (chmod would not).
    mkdirSync(path.join(r.dir, '.agent/tasks/t1_csv/tracking/01.md'), { recursive: true });
    const result = await refreshContext({ workspace: r.dir, ledger: await seeded(), format: 'detailed', gitCache: new GitCache() });
    expect(result.metadata.warnings.join('\n')).toMatch(/Cannot read .*tracking\/01\.md/);
    expect((result.context as Loose).task_readme).toContain('# CSV');
  });

  it("renders a smaller shape within the cap when the cap cannot hold detailed's required parts", async () => {
    const r = repo();
    // 300 tokens cannot hold detailed's required parts: the cap still holds (issue 11), with a warning.
    const result = await refreshContext({
      workspace: r.dir,
      ledger: await seeded(),
      format: 'detailed',
      maxTokens: 300,
      gitCache: new GitCache(),
    });
    expect(result.metadata.token_estimate).toBeLessThanOrEqual(300);
    expect(result.metadata.format).toBe('detailed');
    expect(result.metadata.warnings.join('\n')).toMatch(/too small for the format's required parts/);
    expect(Object.keys(result.context).length).toBeGreaterThan(0);
  });

  it('rejects an unknown format and names the field', async () => {
    await expect(refreshContext({ workspace: '/tmp', ledger: new MemoryLedger(), format: 'huge' as never })).rejects.toMatchObject({
      code: 'INPUT_INVALID',
      details: { field: 'format', value: 'huge' },
    });
  });

  it('names an unknown option with the spelling expected, and a value of the wrong type, before reading anything', async () => {
    const ledger = new MemoryLedger();
    await expect(refreshContext({ workspace: '/tmp', ledger, task_id: 't1', include_git: false } as never)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message:
        'refreshContext options is invalid:\n  unknown key "task_id" (did you mean "taskId"?)\n  unknown key "include_git" (did you mean "includeGit"?)',
    });
    await expect(refreshContext({ workspace: '/tmp', ledger, dispatchLimit: '5' } as never)).rejects.toThrow(
      'refreshContext options: dispatchLimit: Invalid input: expected number, received string; got "5"',
    );
  });

  it('listSnapshots names an unknown key in its query', async () => {
    const ledger = new MemoryLedger();
    await expect(listSnapshots(ledger, { task_id: 't1' } as never)).rejects.toThrow(
      'listSnapshots query: unknown key "task_id" (did you mean "taskId"?)',
    );
  });

  it('reports an unknown explicit task as NOT_FOUND', async () => {
    const r = repo();
    await expect(refreshContext({ workspace: r.dir, ledger: new MemoryLedger(), taskId: 'nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('workspace confinement', () => {
  it('refuses ../ paths and symlinks that leave the workspace', async () => {
    const r = repo();
    const outside = tempDir();
    cleanups.push(outside.cleanup);
    writeFileSync(path.join(outside.dir, 'passwd'), 'root:x:0:0');
    await expect(resolveInsideWorkspace(r.dir, '../../etc/passwd')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
    symlinkSync(path.join(outside.dir, 'passwd'), path.join(r.dir, 'link'));
    await expect(resolveInsideWorkspace(r.dir, 'link')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
    writeFileSync(path.join(r.dir, 'inside.txt'), 'ok');
    await expect(resolveInsideWorkspace(r.dir, 'inside.txt')).resolves.toMatch(/inside\.txt$/);
  });

  it('leaves out an artifact symlinked to a file outside the workspace, with a warning', async () => {
    const r = repo();
    const outside = tempDir();
    cleanups.push(outside.cleanup);
    writeFileSync(path.join(outside.dir, 'private.txt'), 'TOP SECRET CONTENT');
    writeFiles(r.dir, { '.agent/tasks/t1_csv/artifacts/plan.md': 'the plan' });
    symlinkSync(path.join(outside.dir, 'private.txt'), path.join(r.dir, '.agent/tasks/t1_csv/artifacts/escape.md'));
    const result = await refreshContext({ workspace: r.dir, ledger: await seeded(), format: 'detailed', gitCache: new GitCache() });
    expect(result.text).not.toContain('TOP SECRET CONTENT');
    expect(result.text).toContain('the plan');
    expect(result.metadata.warnings.join('\n')).toMatch(/Refusing ".*escape\.md": it resolves outside the workspace/);
  });
});

describe('secret redaction of everything that leaves', () => {
  it('masks secrets planted in the diff, the README, dispatch results and tech debt, and counts them', async () => {
    const r = repo({ 'config.ts': 'export const x = 1;\n' });
    writeFileSync(path.join(r.dir, 'config.ts'), `export const key = '${FAKE.githubPat}';\n`);
    writeFiles(r.dir, { '.agent/tasks/t1_csv/README.md': `Use ${FAKE.openai} for the API.` });
    const ledger = await seeded();
    await ledger.appendDispatch({
      taskId: 't1',
      attempt: 2,
      provider: 'gemini',
      status: 'failed',
      result: `auth failed with Bearer ${FAKE.bearerToken}`,
    });
    await ledger.createRecord('debt', {
      status: 'open',
      taskId: 't1',
      data: { title: 'Rotate key', description: `AWS key ${FAKE.aws} leaked` },
    });
    for (const format of ['detailed', 'narrative'] as const) {
      const result = await refreshContext({ workspace: r.dir, ledger, format, includeTaskArtifacts: true, gitCache: new GitCache() });
      for (const secret of [FAKE.githubPat, FAKE.openai, FAKE.bearerToken, FAKE.aws]) expect(result.text).not.toContain(secret);
      expect(result.text).toContain('[REDACTED:');
      // The dispatch and the debt reached the ledger masked (every write is); the diff and the
      // README are masked here.
      expect(result.metadata.redactions).toBeGreaterThanOrEqual(format === 'detailed' ? 2 : 1);
    }
  });
});

describe('freshness, audit and snapshots', () => {
  it("warns when HEAD moved since this session's last refresh, and when that refresh is over an hour old", async () => {
    const r = repo();
    const ledger = await seeded();
    let now = Date.parse('2026-03-01T10:00:00Z');
    const clock = () => now;
    const first = await refreshContext({ workspace: r.dir, ledger, sessionId: 's1', now: clock, gitCache: new GitCache() });
    expect(first.metadata.warnings).toEqual([]);
    writeFileSync(path.join(r.dir, 'b.txt'), 'b');
    r.git('add', '-A');
    r.git('commit', '-qm', 'external commit');
    now += 2 * 3600_000;
    const second = await refreshContext({ workspace: r.dir, ledger, sessionId: 's1', now: clock, gitCache: new GitCache() });
    const warnings = second.metadata.warnings.join('\n');
    expect(warnings).toMatch(/Git HEAD moved since this session's last refresh/);
    expect(warnings).toMatch(/from 2 hours ago \(over an hour old\)/);
    const other = await refreshContext({ workspace: r.dir, ledger, sessionId: 's2', now: clock, gitCache: new GitCache() });
    expect(other.metadata.warnings).toEqual([]);
  });

  it('audits every call with its shape, never its content', async () => {
    const r = repo();
    const ledger = await seeded();
    await refreshContext({ workspace: r.dir, ledger, format: 'minimal', gitCache: new GitCache() });
    const audit = await ledger.listRecords<Record<string, unknown>>('audit');
    expect(audit.items).toHaveLength(1);
    const data = audit.items[0]?.data ?? {};
    expect(data).toMatchObject({ workspace: r.dir, task: 't1', format: 'minimal', redactions: 0 });
    expect(data.sources).toEqual(expect.arrayContaining(['ledger', 'git']));
    expect(typeof data.tokens).toBe('number');
    expect(JSON.stringify(data)).not.toContain('half done');
  });

  it('reports git cache hits in metadata', async () => {
    const r = repo();
    const ledger = await seeded();
    const cache = new GitCache();
    const a = await refreshContext({ workspace: r.dir, ledger, gitCache: cache });
    const b = await refreshContext({ workspace: r.dir, ledger, gitCache: cache });
    expect(a.metadata.cache.git).toBe('miss');
    expect(b.metadata.cache).toMatchObject({ git: 'hit', hits: 1, misses: 1 });
  });

  it('saves snapshots, lists them, and returns {added, updated, removed} since one', async () => {
    const r = repo();
    const ledger = await seeded();
    const saved = await refreshContext({ workspace: r.dir, ledger, saveSnapshot: true, gitCache: new GitCache() });
    const id = saved.metadata.snapshot_id ?? '';
    expect(id).toMatch(/^snap-/);
    const file = JSON.parse(readFileSync(path.join(r.dir, '.baton/snapshots', `${id}.json`), 'utf8'));
    expect(file.task.id).toBe('t1');
    expect((await listSnapshots(ledger)).items.map((s) => s.id)).toEqual([id]);

    const dispatch = await ledger.appendDispatch({ taskId: 't1', attempt: 2, provider: 'gemini', status: 'running' });
    await ledger.updateTask('t1', { status: 'blocked', blockReason: 'waiting for API key' });
    writeFileSync(path.join(r.dir, 'new-file.ts'), 'x');
    const delta = await refreshContext({ workspace: r.dir, ledger, since: id, gitCache: new GitCache() });
    const d = (delta.context as Loose).delta;
    expect(d.base).toBe(id);
    expect(d.added.map((e: { key: string }) => e.key)).toEqual(expect.arrayContaining([`dispatch:${dispatch.id}`, 'file:new-file.ts']));
    const taskUpdate = d.updated.find((e: { key: string }) => e.key === 'task:t1');
    expect(taskUpdate.changed).toEqual(expect.arrayContaining(['status', 'blockReason']));
  });

  it('accepts a timestamp for since and reports what was created after it', async () => {
    const r = repo();
    const ledger = await seeded();
    const cut = Date.now() + 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const fresh = await ledger.appendDispatch({ taskId: 't1', attempt: 2, provider: 'gemini', status: 'running' });
    const result = await refreshContext({ workspace: r.dir, ledger, since: new Date(cut).toISOString(), gitCache: new GitCache() });
    const d = (result.context as Loose).delta;
    expect(d.added.map((e: { key: string }) => e.key)).toContain(`dispatch:${fresh.id}`);
    expect(d.added.map((e: { key: string }) => e.key)).not.toContain('commit:');
  });

  it('rejects a since that is neither a time nor a snapshot id', async () => {
    await expect(refreshContext({ workspace: '/tmp', ledger: new MemoryLedger(), since: 'yesterday' })).rejects.toMatchObject({
      code: 'INPUT_INVALID',
      details: { field: 'since' },
    });
  });
});

describe('refreshTasks (multi-task, §8.5)', () => {
  it('returns one context per task and the dependencies between them', async () => {
    const r = repo();
    const ledger = new MemoryLedger();
    await ledger.createTask({ id: 'a', title: 'Schema', status: 'completed' });
    await ledger.createTask({ id: 'b', title: 'API', status: 'in_progress', dependsOn: ['a'] });
    await ledger.createTask({ id: 'c', title: 'UI', status: 'pending', dependsOn: ['b', 'x'] });
    const result = await refreshTasks(['a', 'b', 'c'], { workspace: r.dir, ledger, gitCache: new GitCache() });
    expect(result.contexts.map((c) => c.task_id)).toEqual(['a', 'b', 'c']);
    expect(result.dependencies).toEqual([
      { task_id: 'b', depends_on: 'a', status: 'completed', in_set: true },
      { task_id: 'c', depends_on: 'b', status: 'in_progress', in_set: true },
      { task_id: 'c', depends_on: 'x', status: 'unknown', in_set: false },
    ]);
    for (const c of result.contexts) expect(c.context).toBeDefined();
    expect(result.metadata.token_estimate).toBeLessThanOrEqual(result.metadata.token_budget);
    expect(result.metadata.tasks).toEqual({ requested: 3, full: 3, headline_only: 0, omitted: 0 });
  });
});

describe('environment', () => {
  it('reports the names of relevant variables, never their values', async () => {
    const r = repo();
    mkdirSync(path.join(r.dir, 'sub'));
    const result = await refreshContext({
      workspace: r.dir,
      ledger: await seeded(),
      env: { BATON_LEDGER: 'memory', OPENAI_API_KEY: FAKE.openai, HOME: '/root' },
      gitCache: new GitCache(),
    });
    const env = (result.context as Loose).environment;
    expect(env.variables).toEqual(['BATON_LEDGER', 'OPENAI_API_KEY']);
    expect(result.text).not.toContain(FAKE.openai);
  });
});
