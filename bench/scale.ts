/**
 * `npm run bench -- scale [--tasks N] [--sleep S] [--workers N] [--redis URL] [--only one|concurrency|workers] [--large]`
 *
 * One plan of N independent tasks (default 100) whose stand-in agent (`sh`: sleep S seconds,
 * default 2, then write out/<task>.txt, checked with `test -f`) runs three ways on a Redis ledger:
 * one process, `--concurrency 4`, and 4 `baton worker` processes each in its own clone of a local
 * bare remote. Reports wall times, speed-ups against one process, and Baton's own overhead per
 * task (the task's span minus its agent's run), p50/p95, with where it goes: before the agent,
 * after it, and the integration's steps (commit, lock wait, fetch, merge, recheck, push). Targets
 * (issue 28): speed-up >= 3.5x both ways; overhead p50 <= 250 ms, p95 <= 500 ms. Baton's CPU time
 * per task (its processes and the git commands they ran, less the stand-in agent's own) and the
 * machine's CPU pressure say how much of an overhead is Baton's work and how much waiting for a core.
 *
 * Small repository by default (bench/results/scale.json `small_repository`); `--large` runs the
 * same on a copy of the refresh bench's 50,000-file repository (`large_repository`). `--only MODE`
 * runs one mode and prints it without writing. The machine's load (`uptime`) is recorded before
 * and after each mode. Runs the built command and modules (`npm run build` first), as users do.
 * BENCH_LOG=info shows the workers' logs.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import type { Ledger } from '../src/ledger/index.js';
import type { Plan, SupervisorEvent, TaskSites } from '../src/supervisor/index.js';
import { ensureBaseRepo } from './lib/bench-repo.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'baton.js');
const built = <T>(module: string): Promise<T> => import(pathToFileURL(path.join(ROOT, 'dist', module, 'index.js')).href) as Promise<T>;
const { createWorktreeSites } = await built<typeof import('../src/isolation/index.js')>('isolation');
const { openLedger } = await built<typeof import('../src/ledger/index.js')>('ledger');
const { silentLogger } = await built<typeof import('../src/observability/index.js')>('observability');
const { createCommandProvider } = await built<typeof import('../src/providers/index.js')>('providers');
const { enqueuePlan, QUEUE_NAME, queueConnection, queuePrefix, waitForTasks } =
  await built<typeof import('../src/queue/index.js')>('queue');
const { runPlan, workspaceOps } = await built<typeof import('../src/supervisor/index.js')>('supervisor');

type Mode = 'one' | 'concurrency' | 'workers';
const MODES: readonly Mode[] = ['one', 'concurrency', 'workers'];
const STEPS = ['commit', 'lockWait', 'fetch', 'merge', 'recheck', 'push'] as const;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

interface Setup {
  base: string;
  plan: Plan;
  script: string;
  redis: string;
  workers: number;
  /** Clone this repository instead of making the small one. */
  from?: string;
}

/** Per task, in ms: Baton's whole overhead, and the part before and after its agent. */
interface TaskTimes {
  overhead: number;
  before: number;
  after: number;
}

export default async function run(args: string[]): Promise<void> {
  const large = args.includes('--large');
  const tasks = Number(flag(args, '--tasks') ?? 100);
  const sleepS = Number(flag(args, '--sleep') ?? 2);
  const base = mkdtempSync(path.join(tmpdir(), 'baton-bench-scale-'));
  const script = `sleep ${sleepS}; mkdir -p out; echo "$BATON_TASK_ID" > "out/$BATON_TASK_ID.txt"`;
  const setup: Setup = {
    base,
    plan: makePlan(tasks),
    script,
    redis: flag(args, '--redis') ?? 'redis://127.0.0.1:6379/15',
    workers: Number(flag(args, '--workers') ?? 4),
    ...(large ? { from: ensureBaseRepo(50_000) } : {}),
  };
  const only = flag(args, '--only') as Mode | undefined;
  try {
    const results: Record<string, unknown> = {};
    for (const mode of only ? [only] : MODES) {
      results[mode] = await measured(mode, setup);
      // Each mode as it ends: a long run that fails later keeps what it measured.
      if (!only) console.log(JSON.stringify({ mode, ...(results[mode] as object) }));
    }
    if (only) {
      console.log(JSON.stringify({ mode: only, ...(results[only] as object) }, null, 2));
      return;
    }
    await record(large ? 'large_repository' : 'small_repository', summarize(results, { tasks, sleepS, large }));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** One mode, with the machine's load (and CPU pressure, the share of time runnable work waited for a core) around it. */
async function measured(mode: Mode, setup: Setup): Promise<Record<string, unknown>> {
  const loadBefore = loadavg().map(round);
  const pressureBefore = cpuPressure();
  const result = mode === 'workers' ? await withWorkers(setup) : await inProcess(mode, setup);
  return {
    ...result,
    load_avg_before: loadBefore,
    load_avg_after: loadavg().map(round),
    ...(pressureBefore === undefined ? {} : { cpu_pressure_avg60_before: pressureBefore, cpu_pressure_avg60_after: cpuPressure() }),
  };
}

/**
 * Baton's CPU time: what a process and the children it reaped (git, the agent's shell) used, in ms,
 * from /proc/PID/stat (utime, stime, cutime, cstime). Unlike wall times it hardly depends on the
 * machine's load: it says how much of an overhead is Baton's work and how much waiting for a core.
 */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** The stand-in agent's own CPU (sh, mkdir, the file) per run, measured without its sleep, so it can be left out. */
function agentCpuMs(script: string): number {
  const runs = 10;
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-bench-agent-'));
  const before = cpuMs(process.pid);
  for (let i = 0; i < runs; i++) {
    execFileSync('sh', ['-c', script.replace(/^sleep [^;]+;/, 'sleep 0;')], { cwd: dir, env: { ...process.env, BATON_TASK_ID: `a${i}` } });
  }
  rmSync(dir, { recursive: true, force: true });
  return (cpuMs(process.pid) - before) / runs;
}

/** Baton's CPU per task: `totalMs` less the stand-in agents' share. */
function batonCpu(totalMs: number, runs: number, tasks: number, agentMs: number): Record<string, number> {
  return { baton_cpu_ms_per_task: round((totalMs - agentMs * runs) / tasks), agent_cpu_ms_per_run: round(agentMs) };
}

/** /proc/pressure/cpu's "some avg60" (percent), where the kernel has it. */
function cpuPressure(): number | undefined {
  try {
    return Number(/some avg10=[\d.]+ avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

function summarize(results: Record<string, unknown>, run: { tasks: number; sleepS: number; large: boolean }): Record<string, unknown> {
  const wall = (mode: Mode) => (results[mode] as { wall_s: number }).wall_s;
  return {
    tasks: run.tasks,
    agent_sleep_s: run.sleepS,
    repository: run.large ? '50,000 files' : 'small (3 files)',
    one_process: results.one,
    concurrency_4: results.concurrency,
    workers_4: results.workers,
    speedup_concurrency_4: round(wall('one') / wall('concurrency')),
    speedup_workers_4: round(wall('one') / wall('workers')),
    ideal_wall_s: { one: run.tasks * run.sleepS, four: (run.tasks * run.sleepS) / 4 },
    targets: { speedup: 3.5, overhead_p50_ms: 250, overhead_p95_ms: 500 },
    cores: cpus().length,
    node: process.version,
    measured_at: new Date().toISOString(),
  };
}

/** Writes `key` of bench/results/scale.json, keeping the other repository's results. */
async function record(key: string, result: Record<string, unknown>): Promise<void> {
  const out = path.join(ROOT, 'bench', 'results', 'scale.json');
  await mkdir(path.dirname(out), { recursive: true });
  const previous = (existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {}) as Record<string, unknown>;
  const kept = Object.fromEntries(Object.entries(previous).filter(([k]) => k === 'small_repository' || k === 'large_repository'));
  await writeFile(out, `${JSON.stringify({ ...kept, [key]: result }, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

function makePlan(tasks: number): Plan {
  return {
    tasks: Array.from({ length: tasks }, (_, i) => {
      const id = `t${String(i + 1).padStart(3, '0')}`;
      return {
        id,
        title: id,
        instructions: `Write out/${id}.txt.`,
        intent: '',
        acceptanceCriteria: [{ description: 'output exists', check: `test -f out/${id}.txt` }],
        dependsOn: [],
        options: {},
        priority: 0,
      };
    }),
  };
}

/** The small repository (three files), or a clone of `from`, at `dir`. */
function makeRepo(dir: string, from?: string): void {
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'ignore' });
  if (from) {
    execFileSync('git', ['clone', '-q', '--local', from, dir]);
    // Not a remote of the run: the workers' mode adds its own `origin`.
    git('remote', 'remove', 'origin');
  } else {
    execFileSync('mkdir', ['-p', dir]);
    git('init', '-q', '-b', 'main');
  }
  git('config', 'user.email', 'bench@example.com');
  git('config', 'user.name', 'Bench');
  writeFileSync(path.join(dir, '.gitignore'), '.baton/\nplan.json\nbaton.config.json\n');
  if (!from) {
    writeFileSync(path.join(dir, 'README.md'), '# bench\n');
    writeFileSync(path.join(dir, 'package.json'), '{"name":"bench"}\n');
  }
  git('add', '-A');
  git('commit', '-qm', 'bench: set up');
}

/** One process (`baton run`) or `--concurrency 4` (worktrees), in this process. */
async function inProcess(mode: Exclude<Mode, 'workers'>, setup: Setup): Promise<Record<string, unknown>> {
  const dir = path.join(setup.base, mode);
  makeRepo(dir, setup.from);
  const namespace = `bench-scale-${mode}-${process.pid}-${Date.now().toString(36)}`;
  const ledger = await openLedger({ spec: setup.redis, namespace });
  const events = eventTimes();
  const concurrency = mode === 'one' ? 1 : 4;
  const sites = concurrency > 1 ? timedSites(await createWorktreeSites({ repoDir: dir, logger: silentLogger }), events) : undefined;
  const agentCpu = agentCpuMs(setup.script);
  const cpuBefore = cpuMs(process.pid);
  const started = performance.now();
  await runPlan(setup.plan, {
    ledger,
    providers: [createCommandProvider('stand_in', { type: 'command', command: ['sh', '-c', setup.script] })],
    workspace: workspaceOps(dir),
    workspaceDir: dir,
    logger: silentLogger,
    onEvent: events.onEvent,
    concurrency,
    ...(sites ? { sites } : {}),
  });
  const wall = (performance.now() - started) / 1000;
  const cpu = cpuMs(process.pid) - cpuBefore;
  const times = await taskTimes(ledger, setup.plan, (id, agentMs) => events.times(id, agentMs));
  const result = await modeResult(ledger, setup.plan, wall, times);
  await dropNamespace(ledger, namespace, setup.redis);
  const outputs = concurrency > 1 ? { outputs_on_branch: outputsOnBranch(dir) } : {};
  const cpuResult = batonCpu(cpu, result.agent_runs ?? 0, setup.plan.tasks.length, agentCpu);
  const finish = sites ? { worktrees_removed_at_end_s: round(events.finishMs / 1000) } : {};
  return { ...result, ...cpuResult, ...outputs, ...finish, ...steps(events.integrations) };
}

/** The supervisor's events, timed: each task's span, its agent's start, and its integrations. */
function eventTimes() {
  const spans = new Map<string, { start: number; end?: number; agentStart?: number; extra: number }>();
  const integrations: Record<string, number>[] = [];
  const onEvent = (event: SupervisorEvent) => {
    const now = performance.now();
    if (event.type === 'task-start') spans.set(event.taskId, { start: now, extra: 0 });
    const span = 'taskId' in event ? spans.get(event.taskId) : undefined;
    if (event.type === 'dispatch-start' && span && span.agentStart === undefined) span.agentStart = now;
    if (event.type === 'task-end' && span) span.end = now;
    if (event.type === 'integration' && event.timings) integrations.push({ ...event.timings });
  };
  return {
    onEvent,
    integrations,
    /** The sites' finish at the run's end, in ms. */
    finishMs: 0,
    /** Time spent outside the span (worktree set-up and release), added to the task. */
    addExtra: (taskId: string, ms: number) => {
      const span = spans.get(taskId) ?? { start: performance.now(), extra: 0 };
      span.extra += ms;
      spans.set(taskId, span);
    },
    times: (taskId: string, agentMs: number): TaskTimes | undefined => {
      const span = spans.get(taskId);
      if (span?.end === undefined || span.agentStart === undefined) return undefined;
      const overhead = span.end - span.start - agentMs + span.extra;
      const before = span.agentStart - span.start + span.extra;
      return { overhead, before, after: overhead - before };
    },
  };
}

/** Worktree set-up and release happen outside task-start/task-end: timed here. */
function timedSites(inner: TaskSites, events: ReturnType<typeof eventTimes>): TaskSites {
  return {
    open: async (task) => {
      const t = performance.now();
      const site = await inner.open(task);
      events.addExtra(task.id, performance.now() - t);
      return {
        ...site,
        release: async () => {
          const r = performance.now();
          await site.release();
          events.addExtra(task.id, performance.now() - r);
        },
      };
    },
    // The run's end: the pool's worktrees are removed (inside the wall time; slow on a large repository).
    finish: async () => {
      const t = performance.now();
      await inner.finish?.();
      events.finishMs += performance.now() - t;
    },
  };
}

/** 4 `baton worker` processes in their own clones; the producer's side in this process. */
async function withWorkers(setup: Setup): Promise<Record<string, unknown>> {
  const dir = path.join(setup.base, 'queue');
  makeRepo(dir, setup.from);
  const remote = path.join(setup.base, 'remote.git');
  execFileSync('git', ['clone', '-q', '--bare', dir, remote]);
  // The remote stands for a server elsewhere: its own upkeep after each push (gc --auto) is not the workers' CPU.
  execFileSync('git', ['config', 'receive.autogc', 'false'], { cwd: remote });
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: dir });
  const config = JSON.stringify({
    providers: { stand_in: { type: 'command', command: ['sh', '-c', setup.script] } },
    priority: ['stand_in'],
  });
  const namespace = `bench-scale-queue-${process.pid}-${Date.now().toString(36)}`;
  const env = { ...process.env, BATON_NAMESPACE: namespace, BATON_LOG_LEVEL: 'info' };
  const workers: { child: ChildProcess; log: string[] }[] = [];
  for (let i = 0; i < setup.workers; i++) {
    const clone = path.join(setup.base, `worker-${i + 1}`);
    execFileSync('git', ['clone', '-q', remote, clone]);
    execFileSync('git', ['config', 'user.email', 'w@example.com'], { cwd: clone });
    execFileSync('git', ['config', 'user.name', `Worker ${i + 1}`], { cwd: clone });
    writeFileSync(path.join(clone, 'baton.config.json'), config);
    workers.push(await startReady(['worker', '--ledger', setup.redis, '--config', 'baton.config.json'], clone, env));
  }
  const connection = queueConnection(setup.redis);
  const producer = await openLedger({ spec: setup.redis, namespace });
  const agentCpu = agentCpuMs(setup.script);
  const workersCpu = () => workers.reduce((sum, { child }) => sum + cpuMs(child.pid as number), 0);
  const cpuBefore = workersCpu();
  const started = performance.now();
  await enqueuePlan({
    connection,
    prefix: queuePrefix(namespace),
    ledger: producer,
    plan: setup.plan,
    runId: `bench${Date.now()}`,
    runBranch: 'main',
    remote: 'origin',
  });
  await waitForTasks(
    producer,
    setup.plan.tasks.map((t) => t.id),
    { pollMs: 100 },
  );
  const wall = (performance.now() - started) / 1000;
  const cpu = workersCpu() - cpuBefore;
  await producer.close();
  execFileSync('git', ['pull', '-q', '--ff-only', 'origin', 'main'], { cwd: dir });
  const jobs = await jobTimes(connection, namespace);
  connection.disconnect();
  for (const { child } of workers) child.kill('SIGTERM');
  await Promise.all(
    workers.map(({ child }) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)))),
  );
  const ledger = await openLedger({ spec: setup.redis, namespace });
  const times = await taskTimes(ledger, setup.plan, (id, agentMs, startedAt) => {
    const job = jobs.get(id);
    if (!job || startedAt === undefined) return undefined;
    const overhead = job.finished - job.taken - agentMs;
    const before = startedAt - job.taken;
    return { overhead, before, after: overhead - before };
  });
  const result = await modeResult(ledger, setup.plan, wall, times);
  await dropNamespace(ledger, namespace, setup.redis);
  return {
    ...result,
    ...batonCpu(cpu, result.agent_runs ?? 0, setup.plan.tasks.length, agentCpu),
    outputs_on_branch: outputsOnBranch(dir),
    ...steps(integrationsLogged(workers.flatMap((w) => w.log))),
  };
}

/** Each task's job: when a worker took it and when it finished (BullMQ's own timestamps). */
async function jobTimes(connection: ReturnType<typeof queueConnection>, namespace: string) {
  const queue = new Queue(QUEUE_NAME, { connection, prefix: queuePrefix(namespace) });
  const jobs = new Map<string, { taken: number; finished: number }>();
  for (const job of await queue.getJobs(['completed'], 0, -1)) {
    const id = (job.data as { task: { id: string } }).task.id;
    if (job.processedOn && job.finishedOn) jobs.set(id, { taken: job.processedOn, finished: job.finishedOn });
  }
  const keys = await connection.keys(`${queuePrefix(namespace)}:*`);
  if (keys.length > 0) await connection.unlink(...keys);
  await queue.close();
  return jobs;
}

/** The workers' "task integrated" log lines (info), with where each integration's time went. */
function integrationsLogged(lines: readonly string[]): Record<string, number>[] {
  return lines.flatMap((line) => {
    if (!line.includes('"task integrated"')) return [];
    try {
      return [(JSON.parse(line) as { ms: Record<string, number> }).ms];
    } catch {
      return [];
    }
  });
}

function startReady(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; log: string[] }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  let partial = '';
  child.stderr?.on('data', (c: Buffer) => {
    const lines = (partial + c.toString()).split('\n');
    partial = lines.pop() ?? '';
    log.push(...lines);
    if (process.env.BENCH_LOG) for (const line of lines) if (!line.includes('"level":30')) process.stderr.write(`${line}\n`);
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (c: Buffer) => {
      seen += c.toString();
      if (seen.includes('ready')) resolve({ child, log });
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code} before ready: ${seen} ${log.join('\n')}`)));
  });
}

/** Each completed task's times, from its dispatches (the agent's own run time) and `timesOf`. */
async function taskTimes(
  ledger: Ledger,
  plan: Plan,
  timesOf: (taskId: string, agentMs: number, agentStartedAt?: number) => TaskTimes | undefined,
): Promise<TaskTimes[]> {
  const all: TaskTimes[] = [];
  for (const task of plan.tasks) {
    const dispatches = await ledger.lastDispatches(task.id, 50);
    const agentMs = dispatches.reduce((sum, d) => sum + (d.durationMs ?? 0), 0);
    const first = dispatches.at(-1);
    const times = timesOf(task.id, agentMs, first?.startedAt);
    if (times) all.push(times);
  }
  return all;
}

async function modeResult(ledger: Ledger, plan: Plan, wall: number, times: TaskTimes[]): Promise<Record<string, number>> {
  let runs = 0;
  let completed = 0;
  for (const task of plan.tasks) {
    if ((await ledger.getTask(task.id))?.status === 'completed') completed++;
    runs += (await ledger.lastDispatches(task.id, 50)).length;
  }
  const pick = (key: keyof TaskTimes, p: number) =>
    round(
      percentile(
        times.map((t) => t[key]),
        p,
      ),
    );
  return {
    wall_s: round(wall),
    agent_runs: runs,
    completed,
    overhead_p50_ms: pick('overhead', 50),
    overhead_p95_ms: pick('overhead', 95),
    before_agent_p50_ms: pick('before', 50),
    after_agent_p50_ms: pick('after', 50),
    after_agent_p95_ms: pick('after', 95),
  };
}

/** p50 of each integration step, in ms, and the pushes lost to a race. */
function steps(integrations: readonly Record<string, number>[]): Record<string, unknown> {
  if (integrations.length === 0) return {};
  const p50 = Object.fromEntries(
    STEPS.map((step) => [
      step,
      round(
        percentile(
          integrations.map((i) => i[step] ?? 0),
          50,
        ),
      ),
    ]),
  );
  const p95 = Object.fromEntries(
    STEPS.map((step) => [
      step,
      round(
        percentile(
          integrations.map((i) => i[step] ?? 0),
          95,
        ),
      ),
    ]),
  );
  return { integration_p50_ms: p50, integration_p95_ms: p95, push_races: integrations.reduce((n, i) => n + (i.races ?? 0), 0) };
}

function outputsOnBranch(dir: string): number {
  return existsSync(path.join(dir, 'out')) ? readdirSync(path.join(dir, 'out')).length : 0;
}

async function dropNamespace(ledger: Ledger, namespace: string, redis: string): Promise<void> {
  await ledger.close();
  const connection = queueConnection(redis);
  const keys = await connection.keys(`baton:${namespace}:*`);
  for (let i = 0; i < keys.length; i += 500) await connection.unlink(...keys.slice(i, i + 500));
  connection.disconnect();
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
