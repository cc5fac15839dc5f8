/**
 * Many machines on BullMQ: `baton run --queue` on a Redis ledger, `baton worker` processes each in
 * its own clone of a local bare remote. Real Redis (DB 15, fresh namespace and queue prefix), real
 * BullMQ, real git, real worker processes, the stand-in agent logging each start.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';
import { type BatonRun, makeProject, startBaton, startsPerTask } from './helpers.js';
import {
  cleanUp,
  cleanups,
  readyLines,
  releaseFile,
  type Report,
  startProducer,
  startWorkers,
  waitForOutput,
  withRemote,
} from './queue-helpers.js';

await describeWithRedis('baton worker on BullMQ', () => {
  const namespaces: string[] = [];
  afterAll(() => cleanUp(namespaces));

  it('three workers in their own clones run a 40-task queued plan once per task and integrate it through the remote; SIGTERM stops them cleanly', async () => {
    const ids = Array.from({ length: 39 }, (_, i) => `q${String(i + 1).padStart(2, '0')}`);
    const project = makeProject(
      [
        ...ids.map((id) => ({ id })),
        { id: 'q40', dependsOn: ['q01', 'q02'], check: 'test -f out/q01.txt && test -f out/q02.txt && test -f out/q40.txt' },
      ],
      { AGENT_SLEEP_MS: '200' },
    );
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { remote, clones } = withRemote(project, 3);
    const namespace = uniqueNamespace('queue');
    namespaces.push(namespace);
    const workers = await startWorkers(clones, namespace, ['--metrics-port', '0']);
    try {
      const producer = startProducer(project, namespace);
      const done = await producer.done;
      expect(done.code, done.stderr).toBe(0);
      const report = JSON.parse(done.stdout) as Report;
      // Prometheus: a worker serves the queue gauges and its finished-task counter.
      const port = /metrics on :(\d+)/.exec(readyLines.get(workers[0] as BatonRun) ?? '')?.[1];
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(/^baton_queue_workers 3$/m);
      expect(metrics).toContain('baton_queue_jobs{state="waiting"}');
      expect(metrics).toMatch(/^baton_queue_tasks_total\{status="completed"\} [1-9]\d*$/m);
      const all = [...ids, 'q40'];
      expect(report.tasks.map((t) => t.status)).toEqual(all.map(() => 'completed'));
      const starts = project.starts();
      for (const id of all) expect(startsPerTask(starts).get(id), id).toBe(1);
      // Runs happened in the workers' clones, by more than one worker, recorded per attempt.
      for (const s of starts) expect(clones.some((c) => s.cwd.startsWith(c))).toBe(true);
      const runners = new Set(report.tasks.map((t) => t.attempts[0]?.claimed_by));
      expect([...runners].every((r) => r?.startsWith('worker:'))).toBe(true);
      expect(runners.size).toBeGreaterThanOrEqual(2);
      // Every result is on the remote's branch and, fast-forwarded, in the producer's tree.
      const onRemote = execFileSync('git', ['--git-dir', remote, 'ls-tree', '-r', '--name-only', 'main', 'out/'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .sort();
      expect(onRemote).toEqual(all.map((id) => `out/${id}.txt`).sort());
      for (const id of all) expect(existsSync(path.join(project.dir, 'out', `${id}.txt`))).toBe(true);
      // Each task's branch was pushed to the remote too.
      const branches = execFileSync('git', ['--git-dir', remote, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/baton/'], {
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .sort();
      expect(branches).toEqual(all.map((id) => `baton/${id}`).sort());
      const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
      expect(await ledger.countDispatches()).toBe(starts.length);
      await ledger.close();
      // baton status shows the queue and the live workers.
      const status = await startBaton(['status', '--ledger', REDIS_TEST_URL, '--json'], {
        cwd: project.dir,
        env: { BATON_NAMESPACE: namespace },
      }).done;
      expect(status.code, status.stderr).toBe(0);
      const queue = JSON.parse(status.stdout).queue;
      expect(queue.counts).toMatchObject({ waiting: 0, active: 0, completed: 40, failed: 0 });
      expect(queue.workers).toHaveLength(3);
      expect(queue.workers.every((w: string) => w.startsWith('worker:'))).toBe(true);
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
    }
    const exits = await Promise.all(workers.map((w) => w.done));
    for (const e of exits) {
      expect(e.code, e.stderr).toBe(0);
      expect(e.stdout).toContain('SIGTERM: finishing the running tasks');
      expect(e.stdout).toContain('baton worker stopped');
    }
    // A worker (one task at a time) reuses one worktree from task to task, and removes it when it
    // stops. Every repository is sound.
    const starts = project.starts();
    expect(starts).toHaveLength(40);
    for (const clone of clones) {
      expect(new Set(starts.filter((s) => s.cwd.startsWith(clone)).map((s) => s.cwd)).size).toBeLessThanOrEqual(1);
      expect(execFileSync('git', ['worktree', 'list'], { cwd: clone, encoding: 'utf8' }).trim().split('\n')).toHaveLength(1);
      execFileSync('git', ['fsck', '--full', '--strict', '--no-progress'], { cwd: clone });
    }
    execFileSync('git', ['--git-dir', remote, 'fsck', '--full', '--strict', '--no-progress']);
  }, 240_000);

  it('lets a worker stopped with SIGTERM mid-attempt finish the attempt, never leaving it running', async () => {
    // The agent runs until the test writes this file, which it does only once the worker has said
    // it is finishing its running task: the attempt is surely mid-way when SIGTERM arrives.
    const release = releaseFile();
    const project = makeProject([{ id: 'graceful' }], { AGENT_SLEEP_MS: '0', AGENT_WAIT_FILE: release });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 1);
    const namespace = uniqueNamespace('queue-term');
    namespaces.push(namespace);
    const [worker] = (await startWorkers(clones, namespace)) as [BatonRun];
    const producer = startProducer(project, namespace);
    const deadline = Date.now() + 60_000;
    while (project.starts().length === 0 && Date.now() < deadline) await sleep(100);
    expect(project.starts()).toHaveLength(1);
    const finishing = waitForOutput(worker, /SIGTERM: finishing the running tasks/, 60_000);
    worker.child.kill('SIGTERM');
    await finishing;
    expect(worker.child.exitCode).toBeNull();
    writeFileSync(release, 'go\n');
    const stopped = await worker.done;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain('SIGTERM: finishing the running tasks');
    const done = await producer.done;
    expect(done.code, done.stderr).toBe(0);
    const task = (JSON.parse(done.stdout) as Report).tasks[0];
    expect(task?.status).toBe('completed');
    expect(task?.attempts.map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:ok']);
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    expect((await ledger.listDispatches({ status: 'running' })).items).toHaveLength(0);
    await ledger.close();
    expect(project.starts()).toHaveLength(1);
  }, 120_000);
});
