/**
 * The reproductions, as tests: several `baton run PLAN` processes on one plan and one
 * ledger share it. Real processes, the real Redis (DB 15, fresh namespace) and SQLite, and a
 * stand-in agent (a command provider) that logs each start: every task's agent runs once, no
 * task ends falsely `blocked`, every process exits 0 and its report says who ran what.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../../src/ledger/index.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';
import { makeProject, type Project, startBaton, startsPerTask } from './helpers.js';

interface Report {
  tasks: { id: string; status: string; attempts: { attempt: number; outcome: string; claimed_by?: string }[]; ran_here?: boolean }[];
  shared: { owner: string; ran_here: string[]; ran_by_others: string[] };
}

const projects: Project[] = [];
afterAll(() => {
  for (const p of projects) rmSync(p.dir, { recursive: true, force: true });
});

async function runMany(project: Project, n: number, ledgerArgs: string[], env: Record<string, string>) {
  const runs = Array.from({ length: n }, () =>
    startBaton(['run', 'plan.json', '--config', 'baton.config.json', ...ledgerArgs, '--json'], { cwd: project.dir, env }),
  );
  return Promise.all(runs.map((r) => r.done));
}

async function expectEachTaskRanOnce(project: Project, ledger: Ledger, ids: readonly string[], reports: Report[]) {
  const counts = startsPerTask(project.starts());
  for (const id of ids) expect(counts.get(id), `agent starts of ${id}`).toBe(1);
  expect(project.starts()).toHaveLength(ids.length);
  for (const id of ids) {
    const task = await ledger.getTask(id);
    expect(task?.status, id).toBe('completed');
    expect(task?.blockReason).toBeUndefined();
  }
  // Ledger dispatches = agent runs.
  expect(await ledger.countDispatches()).toBe(ids.length);
  for (const report of reports) {
    expect(report.tasks.every((t) => t.status === 'completed')).toBe(true);
    expect([...report.shared.ran_here, ...report.shared.ran_by_others].sort()).toEqual([...ids].sort());
  }
  // Each task was run by exactly one of the processes, by their own account.
  const ranHere = reports.flatMap((r) => r.shared.ran_here).sort();
  expect(ranHere).toEqual([...ids].sort());
}

describe('several baton run processes on one SQLite ledger', () => {
  it('run a task with max_retries 1 once; both exit 0 and neither blocks it', async () => {
    const project = makeProject([{ id: 'only', maxRetries: 1 }], { AGENT_SLEEP_MS: '600' });
    projects.push(project);
    const results = await runMany(project, 2, ['--ledger', 'sqlite:state.db'], {});
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const reports = results.map((r) => JSON.parse(r.stdout) as Report);
    const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: project.dir });
    try {
      await expectEachTaskRanOnce(project, ledger, ['only'], reports);
      // The one that did not run it says so.
      expect(reports.map((r) => r.shared.ran_here.length).sort()).toEqual([0, 1]);
      expect(reports.find((r) => r.shared.ran_here.length === 0)?.tasks[0]?.ran_here).toBe(false);
    } finally {
      await ledger.close();
    }
  }, 90_000);
});

await describeWithRedis('several baton run processes on one Redis ledger', () => {
  const namespaces: string[] = [];
  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(ns);
  });

  it('share a 12-task plan: each agent runs once, all complete, all four exit 0', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
    const project = makeProject(
      ids.map((id, i) => ({ id, ...(i === 11 ? { dependsOn: ['t01', 't06'] } : {}) })),
      { AGENT_SLEEP_MS: '250' },
    );
    projects.push(project);
    const namespace = uniqueNamespace('shared-runs');
    namespaces.push(namespace);
    const results = await runMany(project, 4, ['--ledger', REDIS_TEST_URL], { BATON_NAMESPACE: namespace });
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const reports = results.map((r) => JSON.parse(r.stdout) as Report);
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    try {
      await expectEachTaskRanOnce(project, ledger, ids, reports);
      // The work really was shared, not done by one process while the others waited.
      expect(reports.filter((r) => r.shared.ran_here.length > 0).length).toBeGreaterThanOrEqual(2);
      // Dependencies held: t12 started after t01 and t06 finished their agent runs.
      const starts = project.starts();
      const at = (id: string) => starts.find((s) => s.task === id)?.at ?? 0;
      expect(at('t12')).toBeGreaterThan(at('t01'));
      expect(at('t12')).toBeGreaterThan(at('t06'));
    } finally {
      await ledger.close();
    }
    expect(path.isAbsolute(project.dir)).toBe(true);
  }, 120_000);
});
