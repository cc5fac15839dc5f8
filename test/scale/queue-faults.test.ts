/**
 * Faults a real queued run meets, each ending in a clear error, never a spin: a worker started
 * outside a git repository refuses to start; a worker whose own clone fails a job (its remote
 * gone or missing) hands the job back and leaves the rotation, saying why, while healthy workers
 * finish the run; `baton run` stopped with SIGTERM while a throwing task waits for its retry ends
 * at once. Real
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

  it('a worker whose clone cannot reach the remote hands its job back and leaves the rotation, saying why; the healthy workers finish 9/9', async () => {
    const ids = Array.from({ length: 9 }, (_, i) => `t${i + 1}`);
    const project = makeProject(
      ids.map((id) => ({ id })),
      { AGENT_SLEEP_MS: '50' },
    );
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 3);
    const gone = path.join(path.dirname(clones[0]!), 'moved-away.git');
    execFileSync('git', ['remote', 'set-url', 'origin', gone], { cwd: clones[0] });
    const namespace = uniqueNamespace('queue-gone');
    namespaces.push(namespace);
    // The broken worker starts alone, so that it surely takes a job.
    const [broken] = await startWorkers([clones[0]!], namespace);
    const producer = startProducer(project, namespace);
    const left = await broken!.done;
    expect(left.code, left.stderr).toBe(1);
    expect(left.stderr).toMatch(
      /left the rotation: its clone in .*worker-1 failed a job \(handed back to the queue\): could not open a worktree for task t\d/,
    );
    expect(left.stderr).toMatch(/moved-away\.git' does not appear to be a git repository/);
    // No task was blocked for it, and no agent ran there.
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    expect((await ledger.getTasks(ids)).filter((t) => t?.status === 'blocked')).toEqual([]);
    await ledger.close();
    const healthy = await startWorkers(clones.slice(1), namespace);
    try {
      const done = await producer.done;
      expect(done.code, done.stderr).toBe(0);
      const report = JSON.parse(done.stdout) as Report;
      expect(report.tasks.map((t) => `${t.id}:${t.status}`)).toEqual(ids.map((id) => `${id}:completed`));
      const starts = project.starts();
      expect(starts).toHaveLength(9);
      expect(starts.every((s) => !s.cwd.startsWith(clones[0]!))).toBe(true);
    } finally {
      for (const w of healthy) w.child.kill('SIGTERM');
      await Promise.all(healthy.map((w) => w.done));
    }
  }, 180_000);

  it('a worker whose clone lacks the remote a job names leaves the rotation; the job is handed back, not failed', async () => {
    const project = makeProject([{ id: 'orphan' }], { AGENT_SLEEP_MS: '50' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 1);
    // This worker's clone has no "origin", the remote the job names.
    execFileSync('git', ['remote', 'remove', 'origin'], { cwd: clones[0] });
    const namespace = uniqueNamespace('queue-failed');
    namespaces.push(namespace);
    const [worker] = await startWorkers(clones, namespace);
    const producer = startProducer(project, namespace);
    try {
      const left = await worker!.done;
      expect(left.code).toBe(1);
      expect(left.stderr).toMatch(/left the rotation: .* has no remote "origin"/);
      const status = await startBaton(['status', '--ledger', REDIS_TEST_URL, '--json'], {
        cwd: project.dir,
        env: { BATON_NAMESPACE: namespace },
      }).done;
      const queue = JSON.parse(status.stdout).queue;
      // Back in the queue for a worker whose clone works, not failed.
      expect(queue.counts.failed).toBe(0);
      expect(queue.counts.waiting + queue.counts.delayed).toBe(1);
      expect(project.starts()).toHaveLength(0);
    } finally {
      producer.child.kill('SIGTERM');
      await producer.done;
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
