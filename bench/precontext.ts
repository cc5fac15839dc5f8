/**
 * `npm run bench -- precontext [--histories N] [--inject N]`: pre-context build time and size over
 * generated histories, and injection time including the ledger read on SQLite and Redis.
 * Writes bench/results/precontext.json:
 * {build_p50_ms, build_p99_ms, inject_sqlite_p99_ms, inject_redis_p99_ms, tokens_max, tokens_p95, ...}.
 * build_p50_ms/build_p99_ms are plain single-run percentiles after a warm-up (see measureBuilds);
 * `--inject 0` skips the ledger measurements (reported as null). noise_floor_work_* time a fixed
 * workload of the builds' p90 duration on the same machine (see measureNoiseFloor).
 * Targets: build p99 <= 0.05 ms; inject p99 <= 1 ms (SQLite), <= 2 ms (Redis); tokens_max <= 100.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Dispatch, type Ledger, newId, openLedger } from '../src/ledger/index.js';
import { silentLogger } from '../src/observability/index.js';
import { buildHelperContext, buildProviderSwitchContext, buildRetryContext } from '../src/precontext/index.js';
import { countTokens } from '../src/tokens/index.js';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'precontext.json');
const REDIS_URL = process.env.BATON_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

type History = Dispatch[];

/** Deterministic PRNG so runs are comparable. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'auth',
  'routes',
  'endpoint',
  'registered',
  'coverage',
  'missing',
  'test',
  'returns',
  '404',
  'config',
  'splash',
  'navigation',
  'tab',
  'schema',
  'migration',
  'price',
  'format',
  'null',
  'pagination',
  'expected',
];
const DIRS = ['src', 'app', 'lib', 'test', 'src/routes', 'src/auth', 'app/components', 'app/navigation/screens/settings'];
const PROVIDERS = ['gemini', 'copilot', 'cursor', 'codex', 'claude'];
const OUTCOMES = ['rate_limited', 'quota_exhausted', 'timeout', 'overloaded', 'ok', 'validation_failed'] as const;

export function generateHistory(taskId: string, random: () => number): History {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const sentence = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(' ');
  const file = () => `${pick(DIRS)}/${pick(WORDS)}-${Math.floor(random() * 100)}.ts`;
  const attempts = 1 + Math.floor(random() * 4);
  const out: History = [];
  let seq = 0;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const tries = 1 + Math.floor(random() * 3);
    for (let t = 0; t < tries; t++) {
      seq += 1;
      const errors =
        random() < 0.7
          ? Array.from({ length: Math.floor(random() * 5) }, () => sentence(2 + Math.floor(random() * (random() < 0.1 ? 200 : 14))))
          : [];
      if (random() < 0.02) errors.push(`token leaked: ghp_${'x'.repeat(36)}`);
      out.push({
        id: `${taskId}-${seq}`,
        seq,
        taskId,
        attempt,
        provider: pick(PROVIDERS),
        status: 'failed',
        outcome: pick(OUTCOMES),
        filesCreated: Array.from({ length: Math.floor(random() * 6) }, file),
        filesUpdated: Array.from({ length: Math.floor(random() * 6) }, file),
        filesDeleted: [],
        validationErrors: errors,
        startedAt: 1_700_000_000_000 + seq,
      });
    }
  }
  return out.reverse();
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const round = (ms: number) => Math.round(ms * 10_000) / 10_000;

function buildAll(history: History): string[] {
  const attempt = history[0]?.attempt ?? 1;
  return [
    buildProviderSwitchContext({ dispatches: history, logger: silentLogger }),
    buildRetryContext({ attempt: attempt + 1, dispatches: history, logger: silentLogger }),
    buildHelperContext({ attempt, dispatches: history, logger: silentLogger }),
  ];
}

/**
 * Build times per builder call. `single` is each call's one timed run, the first time it sees
 * that history (what a caller sees: cold line cache, GC and JIT included); it gives the headline
 * build_p50_ms/build_p99_ms. `bestOf3` adds two repeat runs per call and keeps the fastest, which
 * filters scheduler preemption on a shared host but also runs on warm CPU caches and tokenizer
 * tables: an optimistic floor, reported as build_best_of_3_*.
 */
function measureBuilds(histories: readonly History[]): { single: number[]; bestOf3: number[]; tokens: number[] } {
  const single: number[] = [];
  const bestOf3: number[] = [];
  const tokens: number[] = [];
  for (const history of histories) {
    const attempt = history[0]?.attempt ?? 1;
    for (let kind = 0; kind < 3; kind++) {
      let best = Number.POSITIVE_INFINITY;
      let block = '';
      for (let run = 0; run < 3; run++) {
        const start = process.hrtime.bigint();
        if (kind === 0) block = buildProviderSwitchContext({ dispatches: history, logger: silentLogger });
        else if (kind === 1) block = buildRetryContext({ attempt: attempt + 1, dispatches: history, logger: silentLogger });
        else block = buildHelperContext({ attempt, dispatches: history, logger: silentLogger });
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (run === 0) single.push(ms);
        best = Math.min(best, ms);
      }
      bestOf3.push(best);
      if (block) tokens.push(countTokens(block));
    }
  }
  for (const list of [single, bestOf3, tokens]) list.sort((a, b) => a - b);
  return { single, bestOf3, tokens };
}

/**
 * The machine's own tail at this time scale: a fixed integer workload sized to the builds' p90,
 * timed as many times as there were builds. On a quiet bare-metal core its p99 stays near its
 * p50; what it adds here (timer ticks, a VM's steal time) also lands on the builds' p99.
 */
function measureNoiseFloor(targetMs: number, samples: number): { p50: number; p99: number } {
  let x = 1;
  const work = (n: number) => {
    for (let i = 0; i < n; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  };
  let n = 1000;
  for (let i = 0; i < 5000; i++) work(n); // optimized before it is sized
  for (let round = 0; round < 5; round++) {
    const runs: number[] = [];
    for (let i = 0; i < 51; i++) {
      const start = process.hrtime.bigint();
      work(n);
      runs.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    runs.sort((a, b) => a - b);
    n = Math.max(100, Math.round((n * targetMs) / Math.max(runs[25] as number, 1e-6)));
  }
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    work(n);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (x === 42) console.error('');
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function measureInjection(ledger: Ledger, histories: readonly History[]): Promise<{ single: number; bestOf3: number }> {
  for (const history of histories) {
    for (const d of [...history].reverse()) {
      const { seq: _seq, ...rest } = d;
      await ledger.appendDispatch({ ...rest, id: newId('d') });
    }
  }
  // A warm-up pass, then 3 timed passes: the first gives the single-run p99, the minimum per
  // sample the best-of-3 p99 (see measureBuilds).
  const single = new Array<number>(histories.length).fill(0);
  const times = new Array<number>(histories.length).fill(Number.POSITIVE_INFINITY);
  for (let pass = 0; pass < 4; pass++) {
    for (const [i, history] of histories.entries()) {
      const taskId = history[0]?.taskId as string;
      const start = process.hrtime.bigint();
      const dispatches = await ledger.lastDispatches(taskId, 30);
      buildRetryContext({ attempt: (dispatches[0]?.attempt ?? 1) + 1, dispatches, logger: silentLogger });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (pass === 1) single[i] = ms;
      if (pass > 0) times[i] = Math.min(times[i] as number, ms);
    }
  }
  const p99 = (list: number[]) =>
    percentile(
      list.sort((a, b) => a - b),
      99,
    );
  return { single: p99(single), bestOf3: p99(times) };
}

export default async function bench(args: string[]): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const historiesCount = arg('--histories', 10_000);
  const injectCount = arg('--inject', 1_000);
  const random = rng(42);
  const histories = Array.from({ length: historiesCount }, (_, i) => generateHistory(`task-${i}`, random));

  // Warm-up on other histories (JIT, tokenizer tables), so the timed builds see no cached lines.
  const warmRandom = rng(7);
  for (let i = 0; i < 2000; i++) buildAll(generateHistory(`warm-${i}`, warmRandom));
  const builds = measureBuilds(histories);
  const noise = measureNoiseFloor(percentile(builds.single, 90), builds.single.length);

  const sample = histories.slice(0, injectCount);
  const inject = injectCount > 0 ? await measureBackends(sample) : { sqlite: NO_TIMES, redis: NO_TIMES };
  const ms = (value: number) => (Number.isNaN(value) ? null : round(value));

  const report = {
    build_p50_ms: round(percentile(builds.single, 50)),
    build_p99_ms: round(percentile(builds.single, 99)),
    inject_sqlite_p99_ms: ms(inject.sqlite.single),
    inject_redis_p99_ms: ms(inject.redis.single),
    tokens_max: builds.tokens.at(-1) ?? 0,
    tokens_p95: percentile(builds.tokens, 95),
    build_p90_ms: round(percentile(builds.single, 90)),
    build_p999_ms: round(percentile(builds.single, 99.9)),
    build_best_of_3_p50_ms: round(percentile(builds.bestOf3, 50)),
    build_best_of_3_p99_ms: round(percentile(builds.bestOf3, 99)),
    inject_sqlite_best_of_3_p99_ms: ms(inject.sqlite.bestOf3),
    inject_redis_best_of_3_p99_ms: ms(inject.redis.bestOf3),
    build_count: builds.single.length,
    noise_floor_work_p50_ms: round(noise.p50),
    noise_floor_work_p99_ms: round(noise.p99),
    load_average_1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  console.log(`${historiesCount} histories, ${builds.single.length} builds, ${sample.length} injections per backend -> ${RESULTS}`);
}

/** Injection p99 on SQLite and on Redis (NaN when Redis is unreachable). */
type InjectTimes = { single: number; bestOf3: number };
const NO_TIMES: InjectTimes = { single: Number.NaN, bestOf3: Number.NaN };

async function measureBackends(sample: readonly History[]): Promise<{ sqlite: InjectTimes; redis: InjectTimes }> {
  let sqlite: InjectTimes;
  let redis = NO_TIMES;
  const dir = await mkdtemp(path.join(tmpdir(), 'baton-bench-precontext-'));
  try {
    const ledger = await openLedger({ spec: `sqlite:${path.join(dir, 'bench.db')}` });
    sqlite = await measureInjection(ledger, sample);
    await ledger.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const namespace = `bench-precontext-${newId('b')}`;
  try {
    const ledger = await openLedger({ spec: REDIS_URL, namespace, connectTimeoutMs: 1000 });
    try {
      redis = await measureInjection(ledger, sample);
    } finally {
      await ledger.close();
      await dropNamespace(namespace);
    }
  } catch (error) {
    console.error(`Redis unavailable at ${REDIS_URL}: ${(error as Error).message}; inject_redis_p99_ms is null`);
  }
  return { sqlite, redis };
}

async function dropNamespace(namespace: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  const keys = await redis.keys(`baton:${namespace}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}
