/**
 * `npm run bench -- scale [--tasks N] [--sleep S] [--workers N] [--redis URL] [--only MODE]`: one plan of N
 * independent tasks (default 200) whose stand-in agent (`sh`: sleep S seconds, default 0.5, then
 * write out/<task>.txt, checked with `test -f`) runs three ways on a small git repository and a
 * Redis ledger: one process, `--concurrency 4`, and 4 `baton worker` processes each in its own
 * clone of a local bare remote. Writes bench/results/scale.json: wall times, speed-ups against one
 * process, and Baton's own overhead per task (claim, worktree, prompt, ledger, validation,
 * integration: the task's span minus its agent's run), p50/p95, with the machine's load.
 * Targets (issue 13): speed-up >= 3.5x for 4 (both ways); overhead p50 <= 100 ms.
 * Workers: BENCH_LOG=info shows their logs; BENCH_WORKER_FLAGS adds node flags (`--cpu-prof
 * --cpu-prof-dir=DIR` to profile them).
 * `--large`: the same on a clone of the 50,000-file repository of the refresh bench (see runLarge).
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

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The built command and modules (`npm run build` first), as users run them: the spawn helper
// (src/spawner) and the bundle exist only there. Types come from the sources.
const BIN = path.join(ROOT, 'bin', 'baton.js');
const built = <T>(module: string): Promise<T> => import(pathToFileURL(path.join(ROOT, 'dist', module, 'index.js')).href) as Promise<T>;
const { createWorktreeSites } = await built<typeof import('../src/isolation/index.js')>('isolation');
const { openLedger } = await built<typeof import('../src/ledger/index.js')>('ledger');
const { silentLogger } = await built<typeof import('../src/observability/index.js')>('observability');
const { createCommandProvider } = await built<typeof import('../src/providers/index.js')>('providers');
const { enqueuePlan, QUEUE_NAME, queueConnection, queuePrefix, waitForTasks } =
  await built<typeof import('../src/queue/index.js')>('queue');
const { runPlan, workspaceOps } = await built<typeof import('../src/supervisor/index.js')>('supervisor');

interface ModeResult {
  wall_s: number;
  agent_runs: number;
  overhead_p50_ms: number;
  overhead_p95_ms: number;
  completed: number;
  outputs_on_branch?: number;
  before_agent_p50_ms?: number;
  after_agent_p50_ms?: number;
}

export default async function run(args: string[]): Promise<void> {
  const tasks = Number(flag(args, '--tasks') ?? 200);
  const sleepS = Number(flag(args, '--sleep') ?? 0.5);
  const workers = Number(flag(args, '--workers') ?? 4);
  const redis = flag(args, '--redis') ?? 'redis://127.0.0.1:6379/15';
  const base = mkdtempSync(path.join(tmpdir(), 'baton-bench-scale-'));
  const large = args.includes('--large');
  if (large) {
    await runLarge({ base, tasks: Number(flag(args, '--tasks') ?? 20), sleepS, redis });
    return;
  }
  const load = [] as number[][];
  const script = `sleep ${sleepS}; mkdir -p out; echo "$BATON_TASK_ID" > "out/$BATON_TASK_ID.txt"`;
  const plan = makePlan(tasks);
  // --only one|concurrency|workers: that mode alone, printed and not written (for profiling one mode).
  const only = flag(args, '--only');
  if (only) {
    try {
      const started = process.cpuUsage();
      const result =
        only === 'workers'
          ? await withWorkers({ base, plan, script, redis, workers, sleepS })
          : await inProcess(only, only === 'one' ? 1 : 4, { base, plan, script, redis });
      const cpu = process.cpuUsage(started);
      console.log(JSON.stringify({ mode: only, ...result, bench_process_cpu_s: round((cpu.user + cpu.system) / 1e6) }, null, 2));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
    return;
  }
  try {
    load.push(loadavg());
    const one = await inProcess('one', 1, { base, plan, script, redis });
    load.push(loadavg());
    const four = await inProcess('concurrency', 4, { base, plan, script, redis });
    load.push(loadavg());
    const queued = await withWorkers({ base, plan, script, redis, workers, sleepS });
    load.push(loadavg());
    const result = {
      tasks,
      agent_sleep_s: sleepS,
      repository: 'small (3 files)',
      one_process: one,
      concurrency_4: four,
      workers_4: queued,
      speedup_concurrency_4: round(one.wall_s / four.wall_s),
      speedup_workers_4: round(one.wall_s / queued.wall_s),
      ideal_wall_s: { one: tasks * sleepS, four: (tasks * sleepS) / 4 },
      targets: { speedup: 3.5, overhead_p50_ms: 100 },
      cores: cpus().length,
      load_avg_1m_before_each_mode: load.map((l) => round(l[0] ?? 0)),
      note: 'machine shared with other agents while measured; see load averages',
      node: process.version,
    };
    const out = path.join(ROOT, 'bench', 'results', 'scale.json');
    await mkdir(path.dirname(out), { recursive: true });
    // Keep the --large results of an earlier run.
    const previous = (existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {}) as Record<string, unknown>;
    const kept = previous.large_repository === undefined ? {} : { large_repository: previous.large_repository };
    await writeFile(out, `${JSON.stringify({ ...result, ...kept }, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

interface Setup {
  base: string;
  plan: Plan;
  script: string;
  redis: string;
  /** Clone this repository instead of making the small one. */
  from?: string;
}

const LARGE_REPO = '/tmp/baton-bench-refresh/repo-50000';

/**
 * `--large`: one process vs --concurrency 4 on a clone of the refresh bench's 50,000-file repository
 * (make it with `npm run bench -- refresh`); fewer tasks (default 20). Adds `large_repository` to
 * bench/results/scale.json, keeping the small-repository results.
 */
async function runLarge(setup: { base: string; tasks: number; sleepS: number; redis: string }): Promise<void> {
  if (!existsSync(LARGE_REPO)) throw new Error(`${LARGE_REPO} is missing: run npm run bench -- refresh first`);
  const script = `sleep ${setup.sleepS}; mkdir -p out; echo "$BATON_TASK_ID" > "out/$BATON_TASK_ID.txt"`;
  const plan = makePlan(setup.tasks);
  try {
    const load = [loadavg()[0] ?? 0];
    const one = await inProcess('large-one', 1, { base: setup.base, plan, script, redis: setup.redis, from: LARGE_REPO });
    load.push(loadavg()[0] ?? 0);
    const four = await inProcess('large-concurrency', 4, { base: setup.base, plan, script, redis: setup.redis, from: LARGE_REPO });
    const out = path.join(ROOT, 'bench', 'results', 'scale.json');
    const previous = (existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {}) as Record<string, unknown>;
    const large_repository = {
      files: 50_000,
      tasks: setup.tasks,
      agent_sleep_s: setup.sleepS,
      one_process: one,
      concurrency_4: four,
      speedup_concurrency_4: round(one.wall_s / four.wall_s),
      load_avg_1m_before_each_mode: load.map(round),
    };
    await writeFile(out, `${JSON.stringify({ ...previous, large_repository }, null, 2)}\n`);
    console.log(JSON.stringify(large_repository, null, 2));
  } finally {
    rmSync(setup.base, { recursive: true, force: true });
  }
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

/** A small repository: three files and a commit. */
function makeRepo(dir: string): void {
  execFileSync('mkdir', ['-p', dir]);
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'bench@example.com');
  git('config', 'user.name', 'Bench');
  writeFileSync(path.join(dir, 'README.md'), '# bench\n');
  writeFileSync(path.join(dir, 'package.json'), '{"name":"bench"}\n');
  writeFileSync(path.join(dir, '.gitignore'), '.baton/\nplan.json\nbaton.config.json\n');
  git('add', '-A');
  git('commit', '-qm', 'initial');
}

async function inProcess(label: string, concurrency: number, setup: Setup): Promise<ModeResult> {
  const dir = path.join(setup.base, label);
  if (setup.from) {
    execFileSync('git', ['clone', '-q', '--local', setup.from, dir]);
    execFileSync('git', ['config', 'user.email', 'bench@example.com'], { cwd: dir });
    execFileSync('git', ['config', 'user.name', 'Bench'], { cwd: dir });
  } else {
    makeRepo(dir);
  }
  const namespace = `bench-scale-${label}-${process.pid}-${Date.now().toString(36)}`;
  const ledger = await openLedger({ spec: setup.redis, namespace });
  const provider = createCommandProvider('stand_in', { type: 'command', command: ['sh', '-c', setup.script] });
  const spans = new Map<string, { start: number; end?: number }>();
  const extra = new Map<string, number>();
  const onEvent = (event: SupervisorEvent) => {
    if (event.type === 'task-start') spans.set(event.taskId, { start: performance.now() });
    if (event.type === 'task-end') {
      const span = spans.get(event.taskId);
      if (span) span.end = performance.now();
    }
  };
  let sites: TaskSites | undefined;
  if (concurrency > 1) {
    const inner = await createWorktreeSites({ repoDir: dir, logger: silentLogger });
    // Worktree set-up and removal happen outside task-start/task-end: timed here.
    sites = {
      open: async (task) => {
        const t = performance.now();
        const site = await inner.open(task);
        extra.set(task.id, (extra.get(task.id) ?? 0) + performance.now() - t);
        return {
          ...site,
          release: async () => {
            const r = performance.now();
            await site.release();
            extra.set(task.id, (extra.get(task.id) ?? 0) + performance.now() - r);
          },
        };
      },
      finish: async () => {
        await inner.finish?.();
      },
    };
  }
  const started = performance.now();
  await runPlan(setup.plan, {
    ledger,
    providers: [provider],
    workspace: workspaceOps(dir),
    workspaceDir: dir,
    logger: silentLogger,
    onEvent,
    concurrency,
    ...(sites ? { sites } : {}),
  });
  const wall = (performance.now() - started) / 1000;
  const result = await summarize(ledger, setup.plan, wall, (id, agentMs) => {
    const span = spans.get(id);
    return span?.end === undefined ? undefined : span.end - span.start - agentMs + (extra.get(id) ?? 0);
  });
  await dropNamespace(ledger, namespace, setup.redis);
  return result;
}

async function withWorkers(setup: Setup & { workers: number; sleepS: number }): Promise<ModeResult> {
  const dir = path.join(setup.base, 'queue');
  makeRepo(dir);
  const remote = path.join(setup.base, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  // The remote stands for a server elsewhere: its own upkeep after each push (gc --auto) is not the workers' CPU.
  execFileSync('git', ['config', 'receive.autogc', 'false'], { cwd: remote });
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: dir });
  execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: dir });
  const config = JSON.stringify({
    providers: { stand_in: { type: 'command', command: ['sh', '-c', setup.script] } },
    priority: ['stand_in'],
  });
  writeFileSync(path.join(dir, 'baton.config.json'), config);
  const namespace = `bench-scale-queue-${process.pid}-${Date.now().toString(36)}`;
  const env = { ...process.env, BATON_NAMESPACE: namespace, BATON_LOG_LEVEL: process.env.BENCH_LOG ?? 'error' };
  const children: ChildProcess[] = [];
  for (let i = 0; i < setup.workers; i++) {
    const clone = path.join(setup.base, `worker-${i + 1}`);
    execFileSync('git', ['clone', '-q', remote, clone]);
    execFileSync('git', ['config', 'user.email', 'w@example.com'], { cwd: clone });
    execFileSync('git', ['config', 'user.name', `Worker ${i + 1}`], { cwd: clone });
    writeFileSync(path.join(clone, 'baton.config.json'), config);
    children.push(await startReady(['worker', '--ledger', setup.redis, '--config', 'baton.config.json'], clone, env));
  }
  // The producer's side of `baton run --queue`, in-process (a CLI's start-up is not Baton's per-task overhead).
  const connection = queueConnection(setup.redis);
  const producerLedger = await openLedger({ spec: setup.redis, namespace });
  const started = performance.now();
  await enqueuePlan({
    connection,
    prefix: queuePrefix(namespace),
    ledger: producerLedger,
    plan: setup.plan,
    runId: `bench${Date.now()}`,
    runBranch: 'main',
    remote: 'origin',
  });
  await waitForTasks(
    producerLedger,
    setup.plan.tasks.map((t) => t.id),
    { pollMs: 100 },
  );
  const wall = (performance.now() - started) / 1000;
  await producerLedger.close();
  execFileSync('git', ['pull', '-q', '--ff-only', 'origin', 'main'], { cwd: dir });
  // Per task: the job's processing span (taken -> finished) minus its agent's run.
  const queue = new Queue(QUEUE_NAME, { connection, prefix: queuePrefix(namespace) });
  const spans = new Map<string, number>();
  const jobTimes = new Map<string, { taken: number; finished: number }>();
  for (const job of await queue.getJobs(['completed'], 0, -1)) {
    const id = (job.data as { task: { id: string } }).task.id;
    if (job.processedOn && job.finishedOn) {
      spans.set(id, job.finishedOn - job.processedOn);
      jobTimes.set(id, { taken: job.processedOn, finished: job.finishedOn });
    }
  }
  const keys = await connection.keys(`${queuePrefix(namespace)}:*`);
  if (keys.length > 0) await connection.unlink(...keys);
  await queue.close();
  connection.disconnect();
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode === null ? c.once('exit', resolve) : resolve(undefined)))));
  const ledger = await openLedger({ spec: setup.redis, namespace });
  const result = await summarize(ledger, setup.plan, wall, (id, agentMs) => {
    const span = spans.get(id);
    return span === undefined ? undefined : span - agentMs;
  });
  const phases = await workerPhases(ledger, setup.plan, jobTimes);
  await dropNamespace(ledger, namespace, setup.redis);
  const produced = existsSync(path.join(dir, 'out')) ? readdirSync(path.join(dir, 'out')).length : 0;
  return { ...result, outputs_on_branch: produced, ...phases };
}

/**
 * Where a worker's overhead goes, per task (p50): from taking the job to its last dispatch's start
 * (claim, worktree, snapshot, prompt), and from that dispatch's end to the job's end (snapshot,
 * validation, commit, integration, ledger).
 */
async function workerPhases(
  ledger: Ledger,
  plan: Plan,
  jobs: Map<string, { taken: number; finished: number }>,
): Promise<{ before_agent_p50_ms: number; after_agent_p50_ms: number }> {
  const before: number[] = [];
  const after: number[] = [];
  for (const task of plan.tasks) {
    const job = jobs.get(task.id);
    const [last] = await ledger.lastDispatches(task.id, 1);
    if (!job || !last?.finishedAt) continue;
    before.push(last.startedAt - job.taken);
    after.push(job.finished - last.finishedAt);
  }
  return { before_agent_p50_ms: round(percentile(before, 50)), after_agent_p50_ms: round(percentile(after, 50)) };
}

function startReady(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...(process.env.BENCH_WORKER_FLAGS?.split(' ').filter(Boolean) ?? []), BIN, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (c: Buffer) => {
      seen += c.toString();
      if (seen.includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code} before ready: ${seen}`)));
  });
}

async function summarize(
  ledger: Ledger,
  plan: Plan,
  wall: number,
  overheadOf: (taskId: string, agentMs: number) => number | undefined,
): Promise<ModeResult> {
  const overheads: number[] = [];
  let runs = 0;
  let completed = 0;
  for (const task of plan.tasks) {
    if ((await ledger.getTask(task.id))?.status === 'completed') completed++;
    const dispatches = await ledger.lastDispatches(task.id, 50);
    runs += dispatches.length;
    const agentMs = dispatches.reduce((sum, d) => sum + (d.durationMs ?? 0), 0);
    const overhead = overheadOf(task.id, agentMs);
    if (overhead !== undefined) overheads.push(overhead);
  }
  return {
    wall_s: round(wall),
    agent_runs: runs,
    completed,
    overhead_p50_ms: round(percentile(overheads, 50)),
    overhead_p95_ms: round(percentile(overheads, 95)),
  };
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
