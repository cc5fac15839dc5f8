/**
 * createRemoteSites (what `baton worker` runs tasks in) driven directly against a real bare
 * remote: the compare-and-swap integration re-runs a task's checks only when merging the remote's
 * tip brought in others' work.
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

function workerClone(): string {
  const origin = makeRepo({ 'README.md': 'remote sites\n' });
  const remote = path.join(base, `remote-${path.basename(origin.dir)}.git`);
  execFileSync('git', ['clone', '-q', '--bare', origin.dir, remote]);
  origin.cleanup();
  const clone = path.join(base, `clone-${path.basename(remote)}`);
  execFileSync('git', ['clone', '-q', remote, clone]);
  execFileSync('git', ['config', 'user.email', 'w@example.com'], { cwd: clone });
  execFileSync('git', ['config', 'user.name', 'Worker'], { cwd: clone });
  return clone;
}

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
});
