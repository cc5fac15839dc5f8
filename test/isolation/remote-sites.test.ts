/**
 * createRemoteSites (what `baton worker` runs tasks in) driven directly against a real bare
 * remote and real clones: the compare-and-swap integration re-runs a task's checks only when the
 * remote's tip brought in others' work; a task is committed on that tip (no merge commit) unless
 * it changed the same files; a released worktree is made ready for the next task.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRemoteSites } from '../../src/isolation/index.js';
import { type Dispatch, materializeTask } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { makeRepo } from '../refresh/helpers.js';

const base = mkdtempSync(path.join(tmpdir(), 'baton-remote-sites-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function workerClone(files: Record<string, string> = { 'README.md': 'remote sites\n' }): string {
  const origin = makeRepo(files);
  const remote = path.join(base, `remote-${path.basename(origin.dir)}.git`);
  execFileSync('git', ['clone', '-q', '--bare', origin.dir, remote]);
  origin.cleanup();
  return cloneOf(remote);
}

/** Another worker's clone of the same remote. */
function cloneOf(remote: string, name = `clone-${path.basename(remote)}`): string {
  const clone = path.join(base, name);
  execFileSync('git', ['clone', '-q', remote, clone]);
  execFileSync('git', ['config', 'user.email', 'w@example.com'], { cwd: clone });
  execFileSync('git', ['config', 'user.name', 'Worker'], { cwd: clone });
  return clone;
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const remoteOf = (clone: string) => git(clone, 'remote', 'get-url', 'origin');
const plainTask = (id: string, check = `test -f ${id}.txt`) =>
  materializeTask({ id, title: id, acceptanceCriteria: [{ description: `${id} holds`, check }] }, Date.now());

describe('remote task sites (baton worker)', () => {
  it('re-runs a task’s checks after merging others’ work, and only then', async () => {
    const clone = workerClone();
    const runs = path.join(base, 'check-runs.log');
    const sites = await createRemoteSites({ repoDir: clone, logger: silentLogger });
    const branch = sites.forBranch('main');
    const task = (id: string, check: string) =>
      materializeTask(
        { id, title: id, acceptanceCriteria: [{ description: `${id} holds`, check: `echo ${id} >> ${runs}; ${check}` }] },
        Date.now(),
      );
    // Both start from the same tip. b's check passes alone and fails once a's file is there.
    const a = await branch.open(task('a', 'test -f a.txt'));
    const b = await branch.open(task('b', 'test -f b.txt && ! test -f a.txt'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    // a integrates first: the tip had nothing new, so its check is not run again.
    expect(await a.complete?.(1, { id: 'da' } as Dispatch)).toEqual({ ok: true });
    expect(existsSync(runs)).toBe(false);
    await a.release();
    // b's merge brings a's commit in: its check runs on the result, fails, and nothing is pushed.
    const gate = await b.complete?.(1, { id: 'db' } as Dispatch);
    expect(gate?.ok).toBe(false);
    expect(gate && !gate.ok ? gate.error : '').toBe(
      'after merging main: check failed: echo b >> ' + runs + '; test -f b.txt && ! test -f a.txt',
    );
    expect(readFileSync(runs, 'utf8')).toBe('b\n');
    await b.release();
    await sites.close();
    const onRemote = execFileSync('git', ['ls-tree', '--name-only', 'origin/main'], { cwd: clone, encoding: 'utf8' });
    expect(onRemote.split('\n').filter(Boolean).sort()).toEqual(['README.md', 'a.txt']);
  });

  it('commits a task on the tip another worker pushed meanwhile: one commit on top, no merge commit', async () => {
    const first = workerClone();
    const second = cloneOf(remoteOf(first), 'second-worker');
    const [one, two] = [
      await createRemoteSites({ repoDir: first, logger: silentLogger }),
      await createRemoteSites({ repoDir: second, logger: silentLogger }),
    ];
    const a = await one.forBranch('main').open(plainTask('a'));
    const b = await two.forBranch('main').open(plainTask('b'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    expect(await a.complete?.(1, { id: 'da' } as Dispatch)).toEqual({ ok: true });
    // b's agent ends: its site fetches (a's push), then b completes on that tip.
    b.workspace.agentDone?.();
    expect(await b.complete?.(1, { id: 'db' } as Dispatch)).toEqual({ ok: true });
    const remote = remoteOf(first);
    expect(git(remote, 'log', '--format=%s', 'main').split('\n')).toEqual([
      'baton: b (attempt 1)',
      'baton: a (attempt 1)',
      'initial commit',
    ]);
    expect(git(remote, 'rev-list', '--merges', 'main')).toBe('');
    // The task's branch holds its commit, as pushed.
    expect(git(remote, 'rev-parse', 'baton/b')).toBe(git(remote, 'rev-parse', 'main'));
    for (const site of [a, b]) await site.release();
    await one.close();
    await two.close();
  });

  it('brings the tip in before the checks: they see what would be pushed, run once, and what they write is not committed', async () => {
    const first = workerClone();
    const second = cloneOf(remoteOf(first), 'second-catch-up');
    const [one, two] = [
      await createRemoteSites({ repoDir: first, logger: silentLogger }),
      await createRemoteSites({ repoDir: second, logger: silentLogger }),
    ];
    const runs = path.join(base, 'catch-up-runs.log');
    // Passes only with a's work in the worktree; leaves a file behind, as a build would.
    const check = `echo b >> ${runs}; test -f a.txt && test -f b.txt && echo built > build.log`;
    const b = await two.forBranch('main').open(plainTask('b', check));
    const a = await one.forBranch('main').open(plainTask('a'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    expect(await a.complete?.(1, { id: 'da' } as Dispatch)).toEqual({ ok: true });
    // b's attempt, as the supervisor runs it: measured before and after its agent, then checked.
    const before = await b.workspace.snapshot();
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    b.workspace.agentDone?.();
    const after = await b.workspace.snapshot();
    // The measurement is the agent's own work: a's file comes in after it.
    expect(await b.workspace.diff(before, after)).toEqual({ created: ['b.txt'], updated: [], deleted: [] });
    expect(await b.workspace.runCheck(check, { timeoutMs: 10_000 })).toMatchObject({ ok: true });
    expect(await b.complete?.(1, { id: 'db' } as Dispatch)).toEqual({ ok: true });
    // Checked once, on what was pushed: a's tip and b's work, in one commit on top.
    expect(readFileSync(runs, 'utf8')).toBe('b\n');
    const remote = remoteOf(first);
    expect(git(remote, 'ls-tree', '--name-only', 'main').split('\n').sort()).toEqual(['README.md', 'a.txt', 'b.txt']);
    expect(git(remote, 'log', '--format=%s', 'main').split('\n')).toEqual([
      'baton: b (attempt 1)',
      'baton: a (attempt 1)',
      'initial commit',
    ]);
    for (const site of [a, b]) await site.release();
    await one.close();
    await two.close();
  });

  it('merges the tip when it changed a file the task changed too, and both changes land', async () => {
    const lines = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'];
    const first = workerClone({ 'notes.txt': `${lines.join('\n')}\n` });
    const second = cloneOf(remoteOf(first), 'second-merge');
    const [one, two] = [
      await createRemoteSites({ repoDir: first, logger: silentLogger }),
      await createRemoteSites({ repoDir: second, logger: silentLogger }),
    ];
    const a = await one.forBranch('main').open(plainTask('a', 'grep -q ONE notes.txt'));
    const b = await two.forBranch('main').open(plainTask('b', 'grep -q SEVEN notes.txt'));
    writeFileSync(path.join(a.dir, 'notes.txt'), `${['ONE', ...lines.slice(1)].join('\n')}\n`);
    writeFileSync(path.join(b.dir, 'notes.txt'), `${[...lines.slice(0, 6), 'SEVEN'].join('\n')}\n`);
    expect(await a.complete?.(1, { id: 'da' } as Dispatch)).toEqual({ ok: true });
    b.workspace.agentDone?.();
    expect(await b.complete?.(1, { id: 'db' } as Dispatch)).toEqual({ ok: true });
    const remote = remoteOf(first);
    expect(git(remote, 'show', 'main:notes.txt').split('\n')).toEqual(['ONE', ...lines.slice(1, 6), 'SEVEN']);
    expect(git(remote, 'log', '-1', '--format=%s', 'main')).toBe('baton: integrate b');
    for (const site of [a, b]) await site.release();
    await one.close();
    await two.close();
  });

  it('makes a released worktree ready for the next task: cleaned, at the tip, first measured from its commit', async () => {
    const clone = workerClone();
    const sites = await createRemoteSites({ repoDir: clone, logger: silentLogger });
    const branch = sites.forBranch('main');
    const a = await branch.open(plainTask('a'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    expect(await a.complete?.(1, { id: 'da' } as Dispatch)).toEqual({ ok: true });
    // Left behind after the commit (a check's output): it must not reach the next task.
    writeFileSync(path.join(a.dir, 'leftover.log'), 'x\n');
    await a.release();
    const c = await branch.open(plainTask('c'));
    expect(c.dir).toBe(a.dir);
    expect(existsSync(path.join(c.dir, 'leftover.log'))).toBe(false);
    expect(git(c.dir, 'rev-parse', 'HEAD')).toBe(git(clone, 'rev-parse', 'origin/main'));
    // The first measurement (read from the commit) is the folder's as the supervisor would read it.
    const before = await c.workspace.snapshot();
    writeFileSync(path.join(c.dir, 'c.txt'), 'c\n');
    expect(await c.workspace.diff(before, await c.workspace.snapshot())).toEqual({ created: ['c.txt'], updated: [], deleted: [] });
    await c.release();
    await sites.close();
  });
});
