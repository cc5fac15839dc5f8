/**
 * createWorktreeSites driven directly, many short tasks at once: every open of a reused worktree
 * races the integrations of the others. Real git in a temporary repository; the "agent" is this
 * test writing the task's file into its worktree.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
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
});
