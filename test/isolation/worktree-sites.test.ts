/**
 * createWorktreeSites (`baton run --concurrency`) driven directly, on real git in a temporary
 * repository; the "agent" is this test writing into the task's worktree. Results reach the run's
 * branch by ref (and the user's working tree when it has that branch checked out); what only the
 * user can resolve (their own file in the way, their uncommitted edits) blocks the task at once,
 * names the path, and keeps the result on the task's branch. A `git reset --hard` of the branch
 * during the run is not undone: integration stops, saying so.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorktreeSites } from '../../src/isolation/index.js';
import { materializeTask } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import type { SiteOutcome, SupervisorEvent, TaskSite } from '../../src/supervisor/index.js';
import { makeRepo } from '../refresh/helpers.js';

const repos: Array<ReturnType<typeof makeRepo>> = [];
afterAll(() => {
  for (const repo of repos) repo.cleanup();
});

const task = (id: string) => materializeTask({ id, title: id }, Date.now());
const complete = (site: TaskSite): Promise<SiteOutcome> => site.complete!(1, { recheck: async () => [] });

/** Opens a task, writes `files` into its worktree, completes it and releases the worktree. */
async function runTask(
  sites: Awaited<ReturnType<typeof createWorktreeSites>>,
  id: string,
  files: Record<string, string>,
): Promise<SiteOutcome> {
  const site = await sites.open(task(id));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(site.dir, name)), { recursive: true });
      writeFileSync(path.join(site.dir, name), text);
    }
    return await complete(site);
  } finally {
    await site.release();
  }
}

describe('worktree task sites (--concurrency)', () => {
  it(
    'integrates every result when worktrees are reused while other tasks integrate (80 tasks, 4 at once)',
    { timeout: 180_000 },
    async () => {
      const repo = makeRepo({ 'README.md': 'sites\n' });
      repos.push(repo);
      const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger });
      const ids = Array.from({ length: 80 }, (_, i) => `t${String(i).padStart(2, '0')}`);
      const queue = [...ids];
      const failures: string[] = [];
      const lane = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const outcome = await runTask(sites, id, { [`out/${id}.txt`]: `${id}\n` });
          if (outcome.kind !== 'integrated') failures.push(`${id}: ${JSON.stringify(outcome)}`);
        }
      };
      await Promise.all([lane(), lane(), lane(), lane()]);
      await sites.finish?.();
      expect(failures).toEqual([]);
      expect(repo.git('ls-tree', '-r', '--name-only', 'main', 'out/').trim().split('\n').sort()).toEqual(ids.map((id) => `out/${id}.txt`));
      // The user's working tree followed the branch, and is clean.
      expect(readdirSync(path.join(repo.dir, 'out')).length).toBe(80);
      expect(repo.git('status', '--porcelain')).toBe('');
      expect(repo.git('branch', '--list', 'baton/*').trim()).toBe('');
      repo.git('fsck', '--full', '--strict', '--no-progress');
    },
  );

  it('gives the next task a clean worktree after one that left files uncommitted, and removes its worktrees at the end', async () => {
    const repo = makeRepo({ 'README.md': 'sites\n' });
    repos.push(repo);
    const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger });
    expect((await runTask(sites, 'passed', { 'passed.txt': 'ok\n' })).kind).toBe('integrated');
    const failed = await sites.open(task('failed'));
    writeFileSync(path.join(failed.dir, 'junk.txt'), 'left behind\n');
    await failed.release();
    const next = await sites.open(task('next'));
    expect(next.dir).toBe(failed.dir);
    expect(existsSync(path.join(next.dir, 'junk.txt'))).toBe(false);
    expect(existsSync(path.join(next.dir, 'passed.txt'))).toBe(true);
    await next.release();
    await sites.finish?.();
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(existsSync(next.dir)).toBe(false);
  });

  it("blocks a task at once when the user's untracked file is where it writes: the file is kept, the path named, the result kept on its branch", async () => {
    const repo = makeRepo({ 'README.md': 'sites\n' });
    repos.push(repo);
    const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger });
    mkdirSync(path.join(repo.dir, 'out'));
    writeFileSync(path.join(repo.dir, 'out', 'a.txt'), 'mine\n');
    const outcome = await runTask(sites, 'a', { 'out/a.txt': 'from the task\n' });
    expect(outcome).toMatchObject({ kind: 'refused', final: true });
    const error = outcome.kind === 'refused' ? outcome.error : '';
    expect(error).toContain(`out/a.txt is an untracked file in ${repo.dir} (left as it was)`);
    expect(error).toContain('move it away or commit it');
    expect(error).toContain("the task's result is kept on branch baton/a (then: git merge baton/a)");
    expect(readFileSync(path.join(repo.dir, 'out', 'a.txt'), 'utf8')).toBe('mine\n');
    expect(repo.git('log', '--format=%s', 'main').trim()).toBe('initial commit');
    // Other tasks still integrate; the kept branch survives the end of the run.
    expect((await runTask(sites, 'b', { 'out/b.txt': 'b\n' })).kind).toBe('integrated');
    await sites.finish?.();
    expect(repo.git('show', 'baton/a:out/a.txt')).toBe('from the task\n');
    expect(repo.git('branch', '--list', 'baton/*').trim()).toBe('baton/a');
  });

  it('blocks a task at once when the user edited tracked files during the run, and leaves the edits alone', async () => {
    const repo = makeRepo({ 'README.md': 'sites\n' });
    repos.push(repo);
    const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger });
    writeFileSync(path.join(repo.dir, 'README.md'), 'edited by the user\n');
    const outcome = await runTask(sites, 'a', { 'a.txt': 'a\n' });
    expect(outcome).toMatchObject({ kind: 'refused', final: true });
    expect(outcome.kind === 'refused' ? outcome.error : '').toContain(`${repo.dir} has uncommitted changes to tracked files`);
    expect(readFileSync(path.join(repo.dir, 'README.md'), 'utf8')).toBe('edited by the user\n');
    await sites.finish?.();
  });

  it('sends results to the branch the run started on, by ref, after the user checks out another one, and says so', async () => {
    const repo = makeRepo({ 'README.md': 'sites\n' });
    repos.push(repo);
    const events: SupervisorEvent[] = [];
    const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger, onEvent: (e) => events.push(e) });
    expect((await runTask(sites, 'before', { 'before.txt': 'x\n' })).kind).toBe('integrated');
    repo.git('checkout', '-q', '-b', 'elsewhere');
    expect(await runTask(sites, 'after', { 'after.txt': 'y\n' })).toMatchObject({ kind: 'integrated', into: 'main' });
    await sites.finish?.();
    expect(repo.git('ls-tree', '--name-only', 'main').trim().split('\n').sort()).toEqual(['README.md', 'after.txt', 'before.txt']);
    expect(repo.git('ls-tree', '--name-only', 'elsewhere').trim().split('\n').sort()).toEqual(['README.md', 'before.txt']);
    // The user's tree, on the other branch, was not touched.
    expect(existsSync(path.join(repo.dir, 'after.txt'))).toBe(false);
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(events).toContainEqual({
      type: 'notice',
      message: `results went to main, the branch this run started on; ${repo.dir} has elsewhere checked out now`,
    });
  });

  it('refuses to start (INPUT_INVALID) in a folder outside git, on a detached HEAD, and with uncommitted tracked changes, naming them', async () => {
    const repo = makeRepo({ 'README.md': 'sites\n', 'tracked.txt': 'v1\n' });
    repos.push(repo);
    writeFileSync(path.join(repo.dir, 'tracked.txt'), 'v2\n');
    await expect(createWorktreeSites({ repoDir: repo.dir, logger: silentLogger })).rejects.toMatchObject({
      code: 'INPUT_INVALID',
      message: expect.stringContaining('tracked.txt'),
    });
    repo.git('checkout', '-q', '--', 'tracked.txt');
    repo.git('checkout', '-q', '--detach');
    await expect(createWorktreeSites({ repoDir: repo.dir, logger: silentLogger })).rejects.toThrow(/HEAD in .* is detached/);
    const outside = path.join(repo.dir, '..');
    await expect(createWorktreeSites({ repoDir: outside, logger: silentLogger })).rejects.toThrow(`${outside} is not in a git repository`);
  });

  it('stops integrating, saying so, after the user resets the branch during the run, instead of merging the removed results back', async () => {
    const repo = makeRepo({ 'README.md': 'sites\n' });
    repos.push(repo);
    const start = repo.git('rev-parse', 'main').trim();
    const sites = await createWorktreeSites({ repoDir: repo.dir, logger: silentLogger });
    expect((await runTask(sites, 'a', { 'a.txt': 'a\n' })).kind).toBe('integrated');
    // b starts from a's result; then the user throws a's result away.
    const b = await sites.open(task('b'));
    const c = await sites.open(task('c'));
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    writeFileSync(path.join(c.dir, 'c.txt'), 'c\n');
    repo.git('reset', '-q', '--hard', start);
    for (const site of [b, c]) {
      const outcome = await complete(site);
      expect(outcome).toMatchObject({ kind: 'refused', final: true });
      expect(outcome.kind === 'refused' ? outcome.error : '').toMatch(
        new RegExp(
          `^main was rewritten during this run \\(a force-push or git reset\\): its tip ${start.slice(0, 12)} no longer holds [0-9a-f]{12}`,
        ),
      );
      await site.release();
    }
    // A task opened after the reset is refused too: the run saw a's result there.
    expect((await runTask(sites, 'd', { 'd.txt': 'd\n' })).kind).toBe('refused');
    await sites.finish?.();
    expect(repo.git('rev-parse', 'main').trim()).toBe(start);
    expect(existsSync(path.join(repo.dir, 'a.txt'))).toBe(false);
  });
});
