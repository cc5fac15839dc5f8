/**
 * Faults a real queued run meets, each ending in a clear error, never a spin: a worker started
 * outside a git repository refuses to start; a task whose run throws on a worker (its remote is
 * gone) is retried with backoff, then blocked with the error, and the queued run reports it and
 * exits non-zero; jobs no worker can take fail for good and the queued run says which, and why;
 * `baton run` stopped with SIGTERM while a throwing task waits for its retry ends at once. Real
 * Redis (DB 15, a fresh namespace), real BullMQ, real git, real `baton` processes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';
import { makeProject, OUT_WRITER, startBaton } from './helpers.js';
import { cleanUp, cleanups, QUEUE_ENV, type Report, startProducer, startWorkers, waitForText, withRemote } from './queue-helpers.js';

const namespaces: string[] = [];
afterAll(() => cleanUp(namespaces));

const countOf = (text: string, pattern: RegExp) => text.split('\n').filter((line) => pattern.test(line)).length;

await describeWithRedis('faults of a queued run', () => {
  it('refuses to start a worker outside a git repository (exit 2), naming the folder', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'baton-no-repo-'));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    writeFileSync(
      path.join(folder, 'baton.config.json'),
      JSON.stringify({ providers: { stand_in: { type: 'command', command: [process.execPath, OUT_WRITER] } }, priority: ['stand_in'] }),
    );
    const namespace = uniqueNamespace('no-repo');
    namespaces.push(namespace);
    const worker = await startBaton(['worker', '--ledger', REDIS_TEST_URL, '--config', 'baton.config.json'], {
      cwd: folder,
      env: { BATON_NAMESPACE: namespace },
    }).done;
    expect(worker.code).toBe(2);
    expect(worker.stdout).not.toContain('ready');
    expect(worker.stderr).toContain(`${folder} is not in a git repository`);
    expect(worker.stderr).toContain('git clone URL, then start the worker in the clone');
  }, 60_000);

  it('retries a task whose remote is gone with backoff, then blocks it with the error; the queued run reports it and exits 1', async () => {
    const project = makeProject([{ id: 'lost' }, { id: 'after', dependsOn: ['lost'] }], { AGENT_SLEEP_MS: '50' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 1);
    const gone = path.join(path.dirname(clones[0]!), 'moved-away.git');
    execFileSync('git', ['remote', 'set-url', 'origin', gone], { cwd: clones[0] });
    const namespace = uniqueNamespace('queue-gone');
    namespaces.push(namespace);
    const [worker] = await startWorkers(clones, namespace);
    try {
      const done = await startProducer(project, namespace).done;
      expect(done.code, done.stderr).toBe(1);
      const report = JSON.parse(done.stdout) as Report;
      expect(report.tasks.map((t) => `${t.id}:${t.status}`)).toEqual(['lost:blocked', 'after:blocked']);
      expect(report.tasks[0]?.attempts).toMatchObject([{ attempt: 1, provider: 'none', outcome: 'failed' }]);
      expect(project.starts()).toHaveLength(0);
      const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
      const reason = (await ledger.getTask('lost'))?.blockReason ?? '';
      await ledger.close();
      expect(reason).toMatch(
        /^Could not run the task \(4 tries\): git fetch .* failed in .*: fatal: '.*moved-away\.git' does not appear to be a git repository/,
      );
    } finally {
      worker?.child.kill('SIGTERM');
    }
    const stopped = await worker!.done;
    expect(stopped.code, stopped.stderr).toBe(0);
    // Four tries, each logged once: no loop restarting it.
    expect(countOf(stopped.stderr, /task run failed/)).toBe(4);
  }, 120_000);

  it('reports the jobs no worker could run (every delivery failed) and exits 1, instead of waiting forever', async () => {
    const project = makeProject([{ id: 'orphan' }], { AGENT_SLEEP_MS: '50' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 1);
    // This worker's clone has no "origin", the remote the job names.
    execFileSync('git', ['remote', 'remove', 'origin'], { cwd: clones[0] });
    const namespace = uniqueNamespace('queue-failed');
    namespaces.push(namespace);
    const [worker] = await startWorkers(clones, namespace);
    try {
      const done = await startProducer(project, namespace).done;
      expect(done.code).toBe(1);
      expect(done.stderr).toMatch(/orphan: its job failed on every delivery, no worker could run it: .* has no remote "origin"/);
      const report = JSON.parse(done.stdout) as Report & { tasks: { job_error?: string }[] };
      expect(report.tasks[0]).toMatchObject({ id: 'orphan', status: 'pending' });
      expect(report.tasks[0]?.job_error).toMatch(/has no remote "origin".*5 deliveries/);
      expect(project.starts()).toHaveLength(0);
    } finally {
      worker?.child.kill('SIGTERM');
      await worker?.done;
    }
  }, 120_000);

  it('stops `baton run` with SIGTERM while a task whose run threw waits for its retry: no further try', async () => {
    const project = makeProject([{ id: 'x' }], { AGENT_SLEEP_MS: '50' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    // The task's worktree cannot be made (git's post-checkout hook fails `git worktree add`): its
    // run throws after the start. (A missing --workspace is refused before the run starts.)
    writeFileSync(path.join(project.dir, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const run = startBaton(['run', 'plan.json', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db', '--concurrency', '2'], {
      cwd: project.dir,
      env: QUEUE_ENV,
    });
    await waitForText(run.child.stderr, /task run failed/, 60_000);
    run.child.kill('SIGTERM');
    const done = await run.done;
    expect(done.code).toBe(1);
    expect(countOf(done.stderr, /task run failed/)).toBe(1);
    expect(project.starts()).toHaveLength(0);
  }, 60_000);
});
