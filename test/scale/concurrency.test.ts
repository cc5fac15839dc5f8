/**
 * `baton run PLAN --concurrency N`: independent tasks at once, each in its own real git worktree on
 * branch baton/<task-id>, integrated into the run's branch. Real git, the stand-in agent as a
 * command provider logging each start, a SQLite ledger; the CLI runs in-process (so the
 * merge-conflict metric can be read) except where noted.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { renderMetrics } from '../../src/observability/index.js';
import { runBaton } from '../helpers/cli.js';
import { makeProject, type Project, type StartEntry, startBaton, startsPerTask } from './helpers.js';

const projects: Project[] = [];
afterAll(() => {
  for (const p of projects) rmSync(p.dir, { recursive: true, force: true });
});

interface Report {
  tasks: {
    id: string;
    status: string;
    attempts: { attempt: number; outcome: string; injected_context: string; files_created: string[]; files_updated: string[] }[];
  }[];
}

const run = (project: Project, extra: string[]) =>
  runBaton(['run', 'plan.json', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db', '--json', ...extra], { cwd: project.dir });

/** The most agents that were running at the same moment, from their start times and sleep. */
function maxOverlap(starts: readonly StartEntry[], durationMs: number): number {
  let best = 0;
  for (const s of starts) best = Math.max(best, starts.filter((o) => o.at <= s.at && s.at < o.at + durationMs).length);
  return best;
}

async function injections(type: string): Promise<number> {
  const text = await renderMetrics();
  const line = text.split('\n').find((l) => l.startsWith(`context_injection_count{type="${type}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('baton run --concurrency', () => {
  it("runs independent tasks at once in their own worktrees and integrates every result into the run's branch", async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const project = makeProject(
      [
        ...ids.map((id) => ({ id })),
        { id: 'g', dependsOn: ['a', 'b'], check: 'test -f out/a.txt && test -f out/b.txt && test -f out/g.txt' },
      ],
      { AGENT_SLEEP_MS: '1200' },
    );
    projects.push(project);
    const result = await run(project, ['--concurrency', '4']);
    expect(result.code, result.stderr).toBe(0);
    const report = result.json<Report>();
    expect(report.tasks.map((t) => t.status)).toEqual(Array(7).fill('completed'));

    const starts = project.starts();
    const all = [...ids, 'g'];
    for (const id of all) expect(startsPerTask(starts).get(id), id).toBe(1);
    // Several agents ran at the same time, each in its own worktree (not the user's tree).
    expect(
      maxOverlap(
        starts.filter((s) => s.task !== 'g'),
        1200,
      ),
    ).toBeGreaterThanOrEqual(3);
    const gitDir = path.join(project.dir, '.git');
    for (const s of starts) expect(s.cwd.startsWith(path.join(gitDir, 'baton-worktrees'))).toBe(true);
    // At most 4 worktrees, reused task after task; agents running at the same time never share one.
    expect(new Set(starts.map((s) => s.cwd)).size).toBeLessThanOrEqual(4);
    for (const a of starts) {
      for (const b of starts) if (a !== b && a.at <= b.at && b.at < a.at + 1200) expect(a.cwd).not.toBe(b.cwd);
    }
    // Each task's measured files are its own, not its neighbours'.
    for (const t of report.tasks) expect(t.attempts[0]?.files_created).toEqual([`out/${t.id}.txt`]);

    // Every result is on the run's branch and in the user's working tree; g was built on a and b.
    const onBranch = project.git('ls-tree', '-r', '--name-only', 'main', 'out/').trim().split('\n').sort();
    expect(onBranch).toEqual(all.map((id) => `out/${id}.txt`).sort());
    for (const id of all) expect(existsSync(path.join(project.dir, 'out', `${id}.txt`))).toBe(true);
    const subjects = project.git('log', '--format=%s', 'main');
    for (const id of all) expect(subjects).toContain(`baton: ${id} (attempt 1)`);

    // Ledger dispatches = agent runs; worktrees and task branches are gone.
    const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: project.dir });
    expect(await ledger.countDispatches()).toBe(starts.length);
    await ledger.close();
    expect(project.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(project.git('branch', '--list', 'baton/*').trim()).toBe('');
  }, 120_000);

  it('re-runs the second of two tasks editing the same line with a MERGE CONFLICT CONTEXT, and integrates both', async () => {
    const project = makeProject(
      [
        { id: 'left', check: 'grep -q left shared.txt' },
        { id: 'right', check: 'grep -q right shared.txt' },
      ],
      { AGENT_SLEEP_MS: '300', AGENT_EDIT_FILE: 'shared.txt', AGENT_EDIT_TASKS: 'left,right' },
      { 'shared.txt': 'shared\nsecond line\n' },
    );
    projects.push(project);
    const before = await injections('merge_conflict');
    const result = await run(project, ['--concurrency', '2']);
    expect(result.code, result.stderr).toBe(0);
    const report = result.json<Report>();
    expect(report.tasks.map((t) => t.status)).toEqual(['completed', 'completed']);

    const starts = project.starts();
    expect(starts).toHaveLength(3);
    const rerun = starts.find((s) => s.head === '--- MERGE CONFLICT CONTEXT ---');
    expect(rerun).toBeDefined();
    const other = rerun?.task === 'left' ? 'right' : 'left';
    const conflicted = report.tasks.find((t) => t.id === rerun?.task);
    expect(conflicted?.attempts.map((a) => a.outcome)).toEqual(['ok', 'ok']);
    const block = conflicted?.attempts[1]?.injected_context ?? '';
    expect(block).toContain('Conflicting files: shared.txt');
    expect(block).toContain(`Changed by: task ${other} (attempt 1)`);
    expect(block.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
    expect(await injections('merge_conflict')).toBe(before + 1);

    // Both results are on the run's branch: the second was redone on top of the first.
    const shared = project.git('show', 'main:shared.txt').split('\n')[0];
    expect(shared).toBe(`shared ${other} ${rerun?.task}`);
    expect(readFileSync(path.join(project.dir, 'shared.txt'), 'utf8').split('\n')[0]).toBe(shared);
  }, 120_000);

  it('prunes worktrees and task branches an interrupted run left behind', async () => {
    const project = makeProject([{ id: 'x' }, { id: 'y' }], { AGENT_SLEEP_MS: '50' });
    projects.push(project);
    const stale = path.join(project.dir, '.git', 'baton-worktrees', 'x');
    project.git('worktree', 'add', '--quiet', '-b', 'baton/x', stale);
    project.git('branch', 'baton/old-task');
    const result = await run(project, ['--concurrency', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(project.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(project.git('branch', '--list', 'baton/*').trim()).toBe('');
    expect(project.git('ls-tree', '-r', '--name-only', 'main', 'out/').trim().split('\n').sort()).toEqual(['out/x.txt', 'out/y.txt']);
  }, 60_000);

  it("keeps each task's worktree and branch with --keep-worktrees, and the next run clears them", async () => {
    const project = makeProject([{ id: 'k1' }, { id: 'k2' }], { AGENT_SLEEP_MS: '50' });
    projects.push(project);
    const kept = await run(project, ['--concurrency', '2', '--keep-worktrees']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(project.git('worktree', 'list').trim().split('\n')).toHaveLength(3);
    expect(project.git('branch', '--list', 'baton/*').replace(/[*+ ]/g, '').trim().split('\n').sort()).toEqual(['baton/k1', 'baton/k2']);
    expect(existsSync(path.join(project.dir, '.git', 'baton-worktrees', 'k1', 'out', 'k1.txt'))).toBe(true);
    const next = await run(project, ['--concurrency', '2']);
    expect(next.code, next.stderr).toBe(0);
    expect(project.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(project.git('branch', '--list', 'baton/*').trim()).toBe('');
  }, 60_000);

  it('refuses (exit 2) a working tree with uncommitted changes to tracked files, naming them', async () => {
    const project = makeProject([{ id: 'x' }], {}, { 'tracked.txt': 'v1\n' });
    projects.push(project);
    writeFileSync(path.join(project.dir, 'tracked.txt'), 'v2\n');
    const result = await run(project, ['--concurrency', '2']);
    expect(result.code).toBe(2);
    // With --json the error is printed as JSON on stdout.
    expect(result.stdout + result.stderr).toContain('tracked.txt');
    expect(result.stdout + result.stderr).toContain('Commit or stash');
    expect(project.starts()).toHaveLength(0);
  }, 30_000);

  it("blocks a task whose result collides with the user's untracked file after one run of its agent, naming the path and what to do", async () => {
    const project = makeProject([{ id: 'mine' }, { id: 'other' }], { AGENT_SLEEP_MS: '50' });
    projects.push(project);
    mkdirSync(path.join(project.dir, 'out'));
    writeFileSync(path.join(project.dir, 'out', 'mine.txt'), 'the user wrote this\n');
    const result = await run(project, ['--concurrency', '2']);
    expect(result.code).toBe(1);
    const report = result.json<Report>();
    expect(report.tasks.map((t) => `${t.id}:${t.status}`)).toEqual(['mine:blocked', 'other:completed']);
    expect(startsPerTask(project.starts()).get('mine')).toBe(1);
    expect(result.stderr).toContain(`out/mine.txt is an untracked file in ${project.dir} (left as it was)`);
    expect(result.stderr).toContain('move it away or commit it');
    expect(result.stderr).toContain('kept on branch baton/mine (then: git merge baton/mine)');
    expect(readFileSync(path.join(project.dir, 'out', 'mine.txt'), 'utf8')).toBe('the user wrote this\n');
    expect(project.git('show', 'baton/mine:out/mine.txt')).toBe('mine\n');
  }, 60_000);

  it('sends every result to the branch the run started on after the user checks out another branch, and says so', async () => {
    const project = makeProject(
      ['s1', 's2', 's3', 's4'].map((id) => ({ id })),
      { AGENT_SLEEP_MS: '800' },
    );
    projects.push(project);
    const running = startBaton(['run', 'plan.json', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db', '--concurrency', '2'], {
      cwd: project.dir,
    });
    // As soon as the first agent runs, the user switches branch.
    for (let i = 0; i < 600 && project.starts().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    project.git('checkout', '-q', '-b', 'feature');
    const done = await running.done;
    expect(done.code, done.stderr).toBe(0);
    expect(project.git('ls-tree', '-r', '--name-only', 'main', 'out/').trim().split('\n').sort()).toEqual(
      ['s1', 's2', 's3', 's4'].map((id) => `out/${id}.txt`),
    );
    expect(project.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feature');
    expect(project.git('status', '--porcelain').trim()).toBe('');
    expect(done.stdout).toContain(`results went to main, the branch this run started on; ${project.dir} has feature checked out now`);
  }, 90_000);
});
