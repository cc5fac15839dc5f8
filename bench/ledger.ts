/**
 * `npm run bench -- ledger [--backends sqlite,redis] [--dispatches N] [--tasks N] [--samples N]`
 *
 * Fills each backend with N dispatches over M tasks (bulk, through importLines), then times
 * `samples` single appends, a task's last-2 reads and recent-100 reads, one call at a time, and
 * writes bench/results/ledger.json (merged with earlier results for backends not run this time).
 * Targets from issue 2: append p99 <= 1 ms and last-2 p99 <= 1 ms on both backends.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../src/errors/index.js';
import { type Dispatch, type Ledger, type LedgerLine, openLedger, type Task } from '../src/ledger/index.js';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'ledger.json');
const REDIS_URL = 'redis://127.0.0.1:6379/15';
const FILL_BATCH = 10_000;
const TARGET_MS = 1;

interface BenchOptions {
  backends: string[];
  dispatches: number;
  tasks: number;
  samples: number;
}

interface BackendResult {
  append_p50_ms: number;
  append_p99_ms: number;
  last2_p50_ms: number;
  last2_p99_ms: number;
  recent100_p50_ms: number;
  recent100_p99_ms: number;
  append_cpu_p99_ms: number;
  last2_cpu_p99_ms: number;
  fill_seconds: number;
  dispatches: number;
  tasks: number;
  samples: number;
  targets_met: boolean;
  /** The machine's 1-minute load average when measuring ended: tails grow on a busy machine. */
  load_avg_1m: number;
  measured_at: string;
}

export default async function bench(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const results: Record<string, unknown> = await readFile(RESULTS, 'utf8')
    .then((text) => JSON.parse(text) as Record<string, unknown>)
    .catch(() => ({}));
  for (const backend of options.backends) {
    const opened = await openBackend(backend).catch((error: unknown) => {
      console.error(`ledger bench: skipping ${backend}: ${errorMessage(error)}`);
      return undefined;
    });
    if (!opened) continue;
    try {
      console.error(`ledger bench: ${backend}: filling ${options.dispatches} dispatches over ${options.tasks} tasks`);
      const result = await measure(opened.ledger, options);
      results[backend] = result;
      console.error(`ledger bench: ${backend}: ${JSON.stringify(result)}`);
      // Written after each backend, so a later backend's failure never loses an earlier result.
      await saveResults(results);
    } catch (error) {
      process.exitCode = 1;
      console.error(`ledger bench: ${backend} failed, its earlier result is kept:`, error);
    } finally {
      await opened.cleanup().catch((error: unknown) => console.error(`ledger bench: ${backend} cleanup failed: ${errorMessage(error)}`));
    }
  }
  await saveResults(results);
  console.log(JSON.stringify(results, null, 2));
}

async function saveResults(results: Record<string, unknown>): Promise<void> {
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}

function parseArgs(args: string[]): BenchOptions {
  const options: BenchOptions = { backends: ['sqlite', 'redis'], dispatches: 1_000_000, tasks: 10_000, samples: 10_000 };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === '--backends' && value) {
      options.backends = value.split(',').map((b) => b.trim());
      const unknown = options.backends.filter((b) => b !== 'sqlite' && b !== 'redis');
      if (unknown.length > 0) throw new Error(`--backends: unknown backend ${unknown.join(', ')} (use sqlite, redis)`);
      continue;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} needs a positive integer, got ${JSON.stringify(value)}`);
    if (flag === '--dispatches') options.dispatches = n;
    else if (flag === '--tasks') options.tasks = n;
    else if (flag === '--samples') options.samples = n;
    else throw new Error(`unknown flag ${flag}: use --backends, --dispatches, --tasks, --samples`);
  }
  return options;
}

async function openBackend(backend: string): Promise<{ ledger: Ledger; cleanup: () => Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'baton-bench-ledger-'));
    const ledger = await openLedger({ spec: `sqlite:${path.join(dir, 'agent.db')}` });
    return {
      ledger,
      cleanup: async () => {
        await ledger.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const namespace = `bench-${process.pid}-${Date.now()}`;
  const ledger = await openLedger({ spec: REDIS_URL, namespace });
  return {
    ledger,
    cleanup: async () => {
      await ledger.close();
      await deleteRedisNamespace(namespace);
    },
  };
}

/** Removes every key of the bench namespace, so repeated runs leave Redis as they found it. */
async function deleteRedisNamespace(namespace: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `baton:${namespace}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function measure(ledger: Ledger, options: BenchOptions): Promise<BackendResult> {
  const fillStart = performance.now();
  await fill(ledger, options);
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const taskId = (i: number) => `task-${(i * 7919) % options.tasks}`;

  const append = await timeEach(options.samples, (i) =>
    ledger.appendDispatch({ taskId: taskId(i), attempt: 2, provider: 'bench', filesUpdated: ['src/a.ts'] }),
  );
  const last2 = await timeEach(options.samples, (i) => ledger.lastDispatches(taskId(i * 31), 2));
  const recent100 = await timeEach(options.samples, () => ledger.recentDispatches(100));
  const result = {
    append_p50_ms: percentile(append.wallMs, 0.5),
    append_p99_ms: percentile(append.wallMs, 0.99),
    last2_p50_ms: percentile(last2.wallMs, 0.5),
    last2_p99_ms: percentile(last2.wallMs, 0.99),
    recent100_p50_ms: percentile(recent100.wallMs, 0.5),
    recent100_p99_ms: percentile(recent100.wallMs, 0.99),
    append_cpu_p99_ms: percentile(append.cpuMs, 0.99),
    last2_cpu_p99_ms: percentile(last2.cpuMs, 0.99),
    fill_seconds: round(fillSeconds),
    dispatches: options.dispatches,
    tasks: options.tasks,
    samples: options.samples,
  };
  return {
    ...result,
    targets_met: result.append_p99_ms <= TARGET_MS && result.last2_p99_ms <= TARGET_MS,
    load_avg_1m: round(loadavg()[0] ?? 0),
    measured_at: new Date().toISOString(),
  };
}

/** Bulk-loads tasks and dispatches in importLines batches, never holding them all in memory. */
async function fill(ledger: Ledger, options: BenchOptions): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < options.tasks; start += FILL_BATCH) {
    const lines: LedgerLine[] = [];
    for (let i = start; i < Math.min(options.tasks, start + FILL_BATCH); i += 1) lines.push({ kind: 'task', record: benchTask(i, now) });
    await ledger.importLines(lines);
  }
  for (let start = 0; start < options.dispatches; start += FILL_BATCH) {
    const lines: LedgerLine[] = [];
    for (let i = start; i < Math.min(options.dispatches, start + FILL_BATCH); i += 1) {
      lines.push({ kind: 'dispatch', record: benchDispatch(i, options.tasks, now) });
    }
    await ledger.importLines(lines);
  }
}

function benchTask(i: number, now: number): Task {
  return {
    id: `task-${i}`,
    title: `Benchmark task ${i}`,
    instructions: 'Implement the feature and keep the tests green.',
    intent: 'bench',
    acceptanceCriteria: [{ description: 'tests pass', check: 'npm test' }],
    status: i % 5 === 0 ? 'completed' : 'pending',
    priority: i % 3,
    dependsOn: [],
    options: {},
    links: {},
    createdAt: now + i,
    updatedAt: now + i,
  };
}

function benchDispatch(i: number, tasks: number, now: number): Dispatch {
  return {
    id: `bench-${String(i).padStart(8, '0')}`,
    seq: i + 1,
    taskId: `task-${i % tasks}`,
    attempt: 1 + Math.floor(i / tasks),
    provider: i % 2 === 0 ? 'claude' : 'codex',
    status: i % 7 === 0 ? 'failed' : 'completed',
    outcome: i % 7 === 0 ? 'rate_limited' : 'ok',
    filesCreated: [`src/feature-${i % 100}.ts`],
    filesUpdated: ['src/index.ts'],
    filesDeleted: [],
    validationErrors: [],
    result: 'Implemented the change; 12 tests pass.',
    tokensIn: 1200,
    tokensOut: 300,
    startedAt: now + i,
    finishedAt: now + i + 5,
    durationMs: 5,
  };
}

interface Timings {
  wallMs: number[];
  /** This process's CPU time per call: unlike wall time it does not count waiting for a core. */
  cpuMs: number[];
}

async function timeEach(samples: number, run: (i: number) => Promise<unknown>): Promise<Timings> {
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    await run(i);
    wallMs.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
  }
  return { wallMs, cpuMs };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return round(sorted[index] ?? 0);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
