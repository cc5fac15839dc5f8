/**
 * createWorktreeSites driven directly, many short tasks at once: every open of a reused worktree
 * races the integrations of the others. Real git in a temporary repository; the "agent" is this
 * test writing the task's file into its worktree.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorktreeSites } from '../../src/isolation/index.js';
import { materializeTask, type Dispatch } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { makeRepo } from '../refresh/helpers.js';

const repos: Array<ReturnType<typeof makeRepo>> = [];
afterAll(() => {
  for (const repo of repos) repo.cleanup();
});

describe('worktree task sites', () => {
  it(
    'integrates every result when worktrees are reused while other tasks integrate (80 tasks, 4 at once)',
    { timeout: 120_000 },
    async () => {
      const repo = makeRepo({ 'README.md': 'sites\n' });
      repos.push(repo);
      const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger });
      const ids = Array.from({ length: 80 }, (_, i) => `t${String(i).padStart(2, '0')}`);
      const queue = [...ids];
      const failures: string[] = [];
      const lane = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const site = await sites.open(materializeTask({ id, title: id }, Date.now()));
          try {
            mkdirSync(path.join(site.dir, 'out'), { recursive: true });
            writeFileSync(path.join(site.dir, 'out', `${id}.txt`), `${id}\n`);
            const gate = await site.complete?.(1, { id: `d-${id}` } as Dispatch);
            if (!gate?.ok) failures.push(`${id}: ${gate && !gate.ok ? gate.error : 'no gate'}`);
          } finally {
            await site.release();
          }
        }
      };
      await Promise.all([lane(), lane(), lane(), lane()]);
      await sites.finish?.();
      expect(failures).toEqual([]);
      const onBranch = repo.git('ls-tree', '-r', '--name-only', 'main', 'out/').trim().split('\n').sort();
      expect(onBranch).toEqual(ids.map((id) => `out/${id}.txt`));
    },
  );

  it('gives the next task a clean worktree after one that left files uncommitted, and deletes task branches at the end', async () => {
    const repo = makeRepo({ 'README.md': 'sites\n' });
    repos.push(repo);
    const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger });
    // A task that passes: everything committed, so the next open skips `git clean`.
    const passed = await sites.open(materializeTask({ id: 'passed', title: 'passed' }, Date.now()));
    writeFileSync(path.join(passed.dir, 'passed.txt'), 'ok\n');
    expect((await passed.complete?.(1, { id: 'd1' } as Dispatch))?.ok).toBe(true);
    await passed.release();
    // A task that fails (never completed): its file stays untracked in the worktree.
    const failed = await sites.open(materializeTask({ id: 'failed', title: 'failed' }, Date.now()));
    expect(failed.dir).toBe(passed.dir);
    writeFileSync(path.join(failed.dir, 'junk.txt'), 'left behind\n');
    await failed.release();
    const next = await sites.open(materializeTask({ id: 'next', title: 'next' }, Date.now()));
    expect(next.dir).toBe(failed.dir);
    expect(existsSync(path.join(next.dir, 'junk.txt'))).toBe(false);
    expect(existsSync(path.join(next.dir, 'passed.txt'))).toBe(true);
    await next.release();
    expect(repo.git('branch', '--list', 'baton/*').trim()).not.toBe('');
    await sites.finish?.();
    expect(repo.git('branch', '--list', 'baton/*').trim()).toBe('');
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    // The worktree is gone at once; its files are deleted by a detached process soon after.
    expect(existsSync(next.dir)).toBe(false);
    const root = path.dirname(next.dir);
    for (let i = 0; i < 100 && readdirSync(root).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(root)).toEqual([]);
  });
});
