/**
 * Many machines on BullMQ: `baton run --queue` on a Redis ledger, `baton worker` processes each in
 * its own clone of a local bare remote. Real Redis (DB 15, fresh namespace and queue prefix), real
 * BullMQ, real git, real worker processes, the stand-in agent logging each start.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace, withRawRedis } from '../helpers/redis.js';
import { type BatonRun, makeProject, type Project, startBaton, startsPerTask } from './helpers.js';

interface Report {
  tasks: { id: string; status: string; attempts: { attempt: number; outcome: string; injected_context: string; claimed_by?: string }[] }[];
}

const cleanups: (() => void)[] = [];
const QUEUE_ENV = { BATON_QUEUE_LOCK_MS: '2000', BATON_QUEUE_STALLED_MS: '1000', BATON_LEASE_MS: '1500' };

/** The project pushed to a bare remote, and `n` worker clones with the same config. */
function withRemote(project: Project, n: number): { remote: string; clones: string[] } {
  const base = mkdtempSync(path.join(tmpdir(), 'baton-remote-'));
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  const remote = path.join(base, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  project.git('remote', 'add', 'origin', remote);
  project.git('push', '-q', 'origin', 'main');
  const clones = Array.from({ length: n }, (_, i) => {
    const dir = path.join(base, `worker-${i + 1}`);
    execFileSync('git', ['clone', '-q', remote, dir]);
    for (const [k, v] of [
      ['user.email', 'w@example.com'],
      ['user.name', `Worker ${i + 1}`],
    ])
      execFileSync('git', ['config', k as string, v as string], { cwd: dir });
    copyFileSync(path.join(project.dir, 'baton.config.json'), path.join(dir, 'baton.config.json'));
    return dir;
  });
  return { remote, clones };
}

/** `baton run plan.json --queue --json` in the project: the producer's side. */
function startProducer(project: Project, namespace: string): BatonRun {
  return startBaton(['run', 'plan.json', '--config', 'baton.config.json', '--ledger', REDIS_TEST_URL, '--queue', '--json'], {
    cwd: project.dir,
    env: { BATON_NAMESPACE: namespace, ...QUEUE_ENV },
  });
}

const readyLines = new Map<BatonRun, string>();

async function startWorkers(clones: readonly string[], namespace: string, extra: string[] = []): Promise<BatonRun[]> {
  const workers = clones.map((cwd) =>
    startBaton(['worker', '--ledger', REDIS_TEST_URL, '--config', 'baton.config.json', ...extra], {
      cwd,
      env: { BATON_NAMESPACE: namespace, ...QUEUE_ENV },
    }),
  );
  await Promise.all(workers.map(async (w) => readyLines.set(w, await waitForOutput(w, /ready/, 60_000))));
  return workers;
}

function waitForOutput(run: BatonRun, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms: ${seen}`)), timeoutMs);
    const onData = (c: Buffer) => {
      seen += c.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        run.child.stdout?.off('data', onData);
        resolve(seen);
      }
    };
    run.child.stdout?.on('data', onData);
  });
}

await describeWithRedis('baton worker on BullMQ', () => {
  const namespaces: string[] = [];
  afterAll(async () => {
    for (const ns of namespaces) {
      await deleteNamespace(ns);
      await withRawRedis(async (client) => {
        const keys = await client.keys(`{baton-${ns}}:*`);
        if (keys.length > 0) await client.unlink(...keys);
      });
    }
    for (const cleanup of cleanups) cleanup();
  });

  it('three workers in their own clones run a queued plan once per task and integrate it through the remote; SIGTERM stops them cleanly', async () => {
    const ids = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
    const project = makeProject(
      [
        ...ids.map((id) => ({ id })),
        { id: 'q7', dependsOn: ['q1', 'q2'], check: 'test -f out/q1.txt && test -f out/q2.txt && test -f out/q7.txt' },
      ],
      { AGENT_SLEEP_MS: '400' },
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
      expect(metrics).toMatch(/^baton_queue_tasks_total\{status="completed"\} [1-7]$/m);
      const all = [...ids, 'q7'];
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
      expect(queue.counts).toMatchObject({ waiting: 0, active: 0, completed: 7, failed: 0 });
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
    // A worker (one agent at a time) reuses its worktrees from task to task: one for the task
    // whose agent runs, one for a task still integrating (take-next-early.ts). It removes them
    // when it stops.
    const starts = project.starts();
    for (const clone of clones) {
      expect(new Set(starts.filter((s) => s.cwd.startsWith(clone)).map((s) => s.cwd)).size).toBeLessThanOrEqual(2);
      expect(execFileSync('git', ['worktree', 'list'], { cwd: clone, encoding: 'utf8' }).trim().split('\n')).toHaveLength(1);
    }
  }, 180_000);

  it("gives a SIGKILLed worker's task to another worker, which records the attempt interrupted and resumes it with context", async () => {
    const project = makeProject([{ id: 'slow' }], { AGENT_SLEEP_MS: '5000' });
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

  it("pauses the workers (the queue's rate limit) while every provider's breaker is open, and says so", async () => {
    const project = makeProject([{ id: 'later' }], { AGENT_SLEEP_MS: '50' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 1);
    const namespace = uniqueNamespace('queue-open');
    namespaces.push(namespace);
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    const until = Date.now() + 6_000;
    await ledger.compareAndSetBreaker('stand_in', 0, { state: 'open', until, failureCount: 1, reason: 'rate_limited' });
    await ledger.close();
    const workers = await startWorkers(clones, namespace);
    try {
      const producer = startProducer(project, namespace);
      const done = await producer.done;
      expect(done.code, done.stderr).toBe(0);
      const starts = project.starts();
      expect(starts).toHaveLength(1);
      // The agent ran only once the breaker's reset time had come.
      expect(starts[0]?.at ?? 0).toBeGreaterThanOrEqual(until);
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
    }
    const [exit] = await Promise.all(workers.map((w) => w.done));
    expect(exit?.stderr).toContain("every provider's circuit breaker is open: workers take no tasks until");
  }, 120_000);

  it('lets a worker stopped with SIGTERM mid-attempt finish the attempt, never leaving it running', async () => {
    const project = makeProject([{ id: 'graceful' }], { AGENT_SLEEP_MS: '3000' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 1);
    const namespace = uniqueNamespace('queue-term');
    namespaces.push(namespace);
    const [worker] = (await startWorkers(clones, namespace)) as [BatonRun];
    const producer = startProducer(project, namespace);
    const deadline = Date.now() + 60_000;
    while (project.starts().length === 0 && Date.now() < deadline) await sleep(100);
    worker.child.kill('SIGTERM');
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

  it('takes the next task while the last one integrates, yet runs one agent at a time and holds no task it has no agent for', async () => {
    const ids = ['e1', 'e2', 'e3', 'e4'];
    const endLog = path.join(mkdtempSync(path.join(tmpdir(), 'baton-ends-')), 'ends.jsonl');
    cleanups.push(() => rmSync(path.dirname(endLog), { recursive: true, force: true }));
    const project = makeProject(
      ids.map((id) => ({ id })),
      { AGENT_SLEEP_MS: '300', END_LOG: endLog },
    );
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { remote, clones } = withRemote(project, 1);
    // A slow remote: every push waits 1.5 s in the remote's pre-receive hook, which logs when.
    const pushLog = path.join(path.dirname(endLog), 'pushes.log');
    writeFileSync(
      path.join(remote, 'hooks', 'pre-receive'),
      `#!/bin/sh\nstart=$(date +%s%3N)\nsleep 1.5\necho "$start $(date +%s%3N)" >> "${pushLog}"\n`,
    );
    chmodSync(path.join(remote, 'hooks', 'pre-receive'), 0o755);
    const namespace = uniqueNamespace('queue-early');
    namespaces.push(namespace);
    const [worker] = (await startWorkers(clones, namespace)) as [BatonRun];
    try {
      const producer = startProducer(project, namespace);
      const done = await producer.done;
      expect(done.code, done.stderr).toBe(0);
      expect((JSON.parse(done.stdout) as Report).tasks.map((t) => t.status)).toEqual(ids.map(() => 'completed'));
    } finally {
      worker.child.kill('SIGTERM');
      await worker.done;
    }
    const starts = project.starts();
    for (const id of ids) expect(startsPerTask(starts).get(id), id).toBe(1);
    const ends = new Map(
      readFileSync(endLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { task: string; at: number })
        .map((e) => [e.task, e.at]),
    );
    const agents = starts.map((s) => ({ from: s.at, to: ends.get(s.task) ?? Number.POSITIVE_INFINITY })).sort((a, b) => a.from - b.from);
    // One agent at a time: each starts after the one before it ended.
    for (let i = 1; i < agents.length; i++) expect(agents[i]?.from).toBeGreaterThanOrEqual(agents[i - 1]?.to as number);
    // And an agent started while an earlier task's push was still in the remote's hook (one worker
    // without the early take never does; with it, each of the three later tasks may: at least one
    // does even on a loaded machine, where starting the next agent can take most of a second).
    const pushes = readFileSync(pushLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(Number) as [number, number]);
    const duringPush = agents.filter((a) => pushes.some(([from, to]) => a.from > from && a.from < to));
    expect(duringPush.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('lets a worker stopped with SIGTERM while one task integrates and the next one runs finish both', async () => {
    const project = makeProject([{ id: 't1' }, { id: 't2' }], { AGENT_SLEEP_MS: '300' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { remote, clones } = withRemote(project, 1);
    // A slow remote keeps the first task integrating while the worker's agent runs the second.
    writeFileSync(path.join(remote, 'hooks', 'pre-receive'), '#!/bin/sh\nsleep 1\n');
    chmodSync(path.join(remote, 'hooks', 'pre-receive'), 0o755);
    const namespace = uniqueNamespace('queue-early-term');
    namespaces.push(namespace);
    const [worker] = (await startWorkers(clones, namespace)) as [BatonRun];
    const producer = startProducer(project, namespace);
    const deadline = Date.now() + 60_000;
    while (project.starts().length < 2 && Date.now() < deadline) await sleep(20);
    expect(project.starts()).toHaveLength(2);
    worker.child.kill('SIGTERM');
    const stopped = await worker.done;
    expect(stopped.code, stopped.stderr).toBe(0);
    const done = await producer.done;
    expect(done.code, done.stderr).toBe(0);
    const report = JSON.parse(done.stdout) as Report;
    expect(report.tasks.map((t) => `${t.id}:${t.status}:${t.attempts.map((a) => a.outcome).join(',')}`)).toEqual([
      't1:completed:ok',
      't2:completed:ok',
    ]);
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    expect((await ledger.listDispatches({ status: 'running' })).items).toHaveLength(0);
    await ledger.close();
    expect(startsPerTask(project.starts())).toEqual(
      new Map([
        ['t1', 1],
        ['t2', 1],
      ]),
    );
  }, 120_000);

  it('leaves a task it cannot start at once to a worker that comes later', async () => {
    const project = makeProject([{ id: 'a' }, { id: 'b' }], { AGENT_SLEEP_MS: '8000' });
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const { clones } = withRemote(project, 2);
    const namespace = uniqueNamespace('queue-idle');
    namespaces.push(namespace);
    // One worker first: it takes one task, and must leave the other queued while its agent runs
    // (8 s: long enough for the second worker to start under a loaded CI machine).
    const workers = await startWorkers(clones.slice(0, 1), namespace);
    try {
      const producer = startProducer(project, namespace);
      const deadline = Date.now() + 60_000;
      while (project.starts().length === 0 && Date.now() < deadline) await sleep(50);
      workers.push(...(await startWorkers(clones.slice(1), namespace)));
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
  }, 120_000);
});
