/**
 * Tasks handed between `baton worker` processes on BullMQ: a SIGKILLed worker's task resumed by
 * another, workers paused while every provider's breaker is open, and a task a busy worker leaves
 * to one that comes later. Real Redis (DB 15, fresh namespace and queue prefix), real BullMQ, real
 * git, real worker processes, the stand-in agent logging each start. (The 40-task plan and SIGTERM:
 * queue-workers.test.ts, on another test worker at the same time.)
 */
import { rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';
import { type BatonRun, makeProject, startBaton } from './helpers.js';
import { cleanUp, cleanups, releaseFile, type Report, startProducer, startWorkers, waitForText, withRemote } from './queue-helpers.js';

await describeWithRedis('baton worker on BullMQ: handing tasks over', () => {
  const namespaces: string[] = [];
  afterAll(() => cleanUp(namespaces));

  it("gives a SIGKILLed worker's task to another worker, which records the attempt interrupted and resumes it with context", async () => {
    // The agent waits for a file the test writes only once the first attempt is killed: the second
    // attempt then runs at once (no fixed sleep to outlast).
    const release = releaseFile();
    const project = makeProject([{ id: 'slow' }], { AGENT_SLEEP_MS: '0', AGENT_WAIT_FILE: release });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 2);
    const namespace = uniqueNamespace('queue-kill');
    namespaces.push(namespace);
    const workers = await startWorkers(clones, namespace);
    try {
      const producer = startProducer(project, namespace);
      const deadline = Date.now() + 60_000;
      while (project.starts().length === 0 && Date.now() < deadline) await sleep(100);
      const first = project.starts()[0];
      expect(first).toBeDefined();
      const victim = workers.find((_, i) => first?.cwd.startsWith(clones[i] as string));
      const killedAt = Date.now();
      victim?.child.kill('SIGKILL');
      try {
        process.kill(first?.pid as number, 'SIGKILL');
      } catch {
        // the agent may be gone already
      }
      writeFileSync(release, 'go\n');
      const done = await producer.done;
      expect(done.code, done.stderr).toBe(0);
      const report = JSON.parse(done.stdout) as Report;
      const task = report.tasks[0];
      expect(task?.status).toBe('completed');
      expect(task?.attempts.map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:interrupted', '2:ok']);
      expect(task?.attempts[1]?.injected_context).toMatch(/^--- RETRY CONTEXT ---/);
      expect(task?.attempts[0]?.claimed_by).not.toBe(task?.attempts[1]?.claimed_by);
      const second = project.starts()[1];
      expect(second).toBeDefined();
      // Picked up well within the 30 s bound (lock 2 s + stalled check 1 s + lease 1.5 s here).
      expect((second?.at ?? 0) - killedAt).toBeLessThan(30_000);
      const status = await startBaton(['status', '--ledger', REDIS_TEST_URL], { cwd: project.dir, env: { BATON_NAMESPACE: namespace } })
        .done;
      expect(status.stdout).toMatch(/queue: 0 waiting, 0 active, 0 delayed \(dependencies\), 1 completed, 0 failed, [1-9]\d* stalled/);
    } finally {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    }
    await Promise.all(workers.map((w) => w.done));
  }, 180_000);

  it("pauses the workers (the queue's rate limit) while every provider's breaker is open, says so, and resumes once one closes", async () => {
    const project = makeProject([{ id: 'later' }], { AGENT_SLEEP_MS: '50' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 1);
    const namespace = uniqueNamespace('queue-open');
    namespaces.push(namespace);
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    // Open far longer than any test runs: only closing it (below) lets the task run.
    const opened = await ledger.compareAndSetBreaker('stand_in', 0, {
      state: 'open',
      until: Date.now() + 3_600_000,
      failureCount: 1,
      reason: 'rate_limited',
    });
    const workers = await startWorkers(clones, namespace);
    const [worker] = workers as [BatonRun];
    try {
      const producer = startProducer(project, namespace);
      await waitForText(worker.child.stderr, /every provider's circuit breaker is open: workers take no tasks until/, 120_000);
      expect(project.starts()).toHaveLength(0);
      const closedAt = Date.now();
      await ledger.compareAndSetBreaker('stand_in', opened?.generation ?? 1, { state: 'closed', failureCount: 0 });
      const done = await producer.done;
      expect(done.code, done.stderr).toBe(0);
      const starts = project.starts();
      expect(starts).toHaveLength(1);
      // The agent ran only once the breaker had closed.
      expect(starts[0]?.at ?? 0).toBeGreaterThanOrEqual(closedAt);
    } finally {
      await ledger.close();
      for (const w of workers) w.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => w.done));
    }
  }, 180_000);

  it('leaves a task it cannot start at once to a worker that comes later', async () => {
    // The agents wait for a file the test writes only once both have started: the first worker,
    // busy with its agent, must have left the second task queued for the second worker.
    const release = releaseFile();
    const project = makeProject([{ id: 'a' }, { id: 'b' }], { AGENT_SLEEP_MS: '0', AGENT_WAIT_FILE: release });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 2);
    const namespace = uniqueNamespace('queue-idle');
    namespaces.push(namespace);
    const workers = await startWorkers(clones.slice(0, 1), namespace);
    try {
      const producer = startProducer(project, namespace);
      const deadline = Date.now() + 120_000;
      while (project.starts().length === 0 && Date.now() < deadline) await sleep(50);
      workers.push(...(await startWorkers(clones.slice(1), namespace)));
      while (project.starts().length < 2 && Date.now() < deadline) await sleep(50);
      writeFileSync(release, 'go\n');
      const done = await producer.done;
      expect(done.code, done.stderr).toBe(0);
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => w.done));
    }
    // Each worker ran one: the first did not take the second task while its own agent ran.
    const starts = project.starts();
    expect(starts).toHaveLength(2);
    expect(clones.map((clone) => starts.filter((s) => s.cwd.startsWith(clone)).length)).toEqual([1, 1]);
  }, 180_000);
});
