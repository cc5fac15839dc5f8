/**
 * Framework adapters benchmark (issue 27): `npm run bench -- adapters [--steps 200] [--runs 5]
 * [--limit 32000] [--traj FILE_OR_DIR...] [--frameworks ai-sdk,langchain,openai-agents] [--out FILE]`.
 *
 * Replays a recorded loop (the shared SWE-agent trajectories joined to `--steps` tool steps) through
 * each framework against a local OpenAI-compatible server that answers at once, with and without
 * Baton's adapter, in alternating runs after one warm-up of each. Per model call it reports what
 * Baton adds (the time between a timer outside the adapter and one around the model call:
 * recording, assembly, conversion), p50/p95 over every call of every run, in wall and in CPU time,
 * and p50/p95 over the calls of the fastest of the runs for each call; per run the loop's wall and
 * CPU time, and the ratios of the medians and of the fastest runs. On a loaded machine the CPU time
 * and the fastest-of-runs figures are what Baton costs; the all-runs wall figures include the time
 * other processes took the CPU. Writes bench/results/adapters.json.
 */
import { cpus, loadavg } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTrajectoryFiles, expandTrajectoryPaths, quantile, readTrajectories } from '../src/bench/index.js';
import { createContextManager } from '../src/index.js';
import { measureBatonOnly } from './adapters-baton-only.js';
import { type Framework, type Mode, type RunSample, runLoop } from './adapters-frameworks.js';
import { startScriptedServer } from './adapters-server.js';
import { type RecordedLoop, recordedLoop } from './adapters-trajectory.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FRAMEWORKS: Framework[] = ['ai-sdk', 'langchain', 'openai-agents'];

interface Options {
  steps: number;
  runs: number;
  limit: number;
  traj: string[];
  frameworks: Framework[];
  /** Where the report goes. @default bench/results/adapters.json */
  out: string;
}

export default async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const files = options.traj.length > 0 ? await expandTrajectoryPaths(options.traj) : await defaultTrajectoryFiles(path.join(here, '..'));
  const loop = recordedLoop((await Promise.all(files.map((f) => readTrajectories(f)))).flat(), options.steps);
  const load: number[] = [];
  const batonOnly = await measureBatonOnly(loop, options.runs, options.limit);
  console.error(`baton only: ${JSON.stringify(batonOnly)}`);
  const frameworks: Record<string, unknown> = {};
  for (const framework of options.frameworks) {
    frameworks[framework] = await measure(framework, loop, options, load);
    console.error(`${framework}: ${JSON.stringify(frameworks[framework])}`);
  }
  const report = {
    machine: { cpus: cpus().length, node: process.version, load_1m_during_run: load },
    loop: { steps: options.steps, runs: options.runs, limit_tokens: options.limit, sources: loop.sources.length },
    target: { overhead_p95_ms: 5, wall_ratio: 1.1 },
    baton_only: batonOnly,
    frameworks,
  };
  const out = path.resolve(options.out);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.error(`wrote ${out}`);
}

/** Warm-up of each mode, then `runs` alternating pairs; one fresh server and manager per run. */
async function measure(framework: Framework, loop: RecordedLoop, options: Options, load: number[]) {
  const samples: Record<Mode, Sample[]> = { bare: [], baton: [] };
  for (let i = -1; i < options.runs; i += 1) {
    for (const mode of ['bare', 'baton'] as const) {
      const sample = await once(framework, mode, loop, options.limit);
      if (i >= 0) samples[mode].push(sample);
    }
    load.push(Math.round((loadavg()[0] ?? 0) * 10) / 10);
  }
  const bare = summarize(samples.bare);
  const baton = summarize(samples.baton);
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    bare,
    baton,
    overhead_per_call_ms: baton.between_timers_ms,
    overhead_per_call_cpu_ms: baton.between_timers_cpu_ms,
    overhead_per_call_fastest_ms: baton.between_timers_fastest_ms,
    wall_ratio: ratio(baton.wall_ms.median, bare.wall_ms.median),
    wall_ratio_fastest: ratio(baton.wall_ms.fastest, bare.wall_ms.fastest),
    cpu_ratio: ratio(baton.cpu_ms.median, bare.cpu_ms.median),
  };
}

type Sample = RunSample & { lastRequestChars: number };

const stats = (values: readonly number[]) => ({ p50: quantile(values, 0.5), p95: quantile(values, 0.95), max: quantile(values, 1) });

/**
 * One mode's runs: per call over all runs, and per call the fastest of the runs (the same step of
 * the same loop: on a loaded machine the other processes' time, which lands on a random call of a
 * random run, is mostly left out); per run the wall and CPU time, median and fastest.
 */
function summarize(runs: readonly Sample[]) {
  const fastest = (runs[0]?.betweenMs ?? []).map((_, step) => Math.min(...runs.map((r) => r.betweenMs[step] ?? Infinity)));
  const walls = runs.map((s) => s.wallMs);
  const cpuRuns = runs.map((s) => s.cpuMs);
  return {
    calls_per_run: runs[0]?.calls ?? 0,
    between_timers_ms: stats(runs.flatMap((s) => s.betweenMs)),
    between_timers_cpu_ms: stats(runs.flatMap((s) => s.betweenCpuMs)),
    between_timers_fastest_ms: stats(fastest),
    wall_ms: { median: quantile(walls, 0.5), fastest: Math.min(...walls), runs: walls.map((w) => Math.round(w)) },
    cpu_ms: { median: quantile(cpuRuns, 0.5), runs: cpuRuns.map((w) => Math.round(w)) },
    last_request_chars: runs[0]?.lastRequestChars,
  };
}

async function once(framework: Framework, mode: Mode, loop: RecordedLoop, limit: number): Promise<Sample> {
  const manager = mode === 'baton' ? await createContextManager({ limitTokens: limit }) : undefined;
  const server = await startScriptedServer(loop.steps);
  let sample: RunSample;
  try {
    sample = await runLoop(framework, loop, server.baseURL, manager);
  } catch (error) {
    await server.close();
    throw error;
  }
  const requests = await server.close();
  if (requests.length !== loop.steps.length)
    throw new Error(`${framework} ${mode}: ${requests.length} model calls for ${loop.steps.length} steps`);
  return { ...sample, lastRequestChars: requests.at(-1) ?? 0 };
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    steps: 200,
    runs: 5,
    limit: 32_000,
    traj: [],
    frameworks: FRAMEWORKS,
    out: path.join(here, 'results', 'adapters.json'),
  };
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const value = args[i + 1] ?? '';
    if (flag === '--traj') {
      while (args[i + 1] !== undefined && !args[i + 1]?.startsWith('--')) options.traj.push(args[++i] as string);
      continue;
    }
    if (flag === '--steps') options.steps = positive(flag, value);
    else if (flag === '--runs') options.runs = positive(flag, value);
    else if (flag === '--limit') options.limit = positive(flag, value);
    else if (flag === '--frameworks') options.frameworks = frameworksOf(value);
    else if (flag === '--out' && value) options.out = value;
    else throw new Error(`unknown option ${flag}; expected --steps, --runs, --limit, --traj, --frameworks or --out FILE`);
    i += 1;
  }
  return options;
}

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

function frameworksOf(value: string): Framework[] {
  const names = value.split(',').map((v) => v.trim());
  const bad = names.filter((n) => !FRAMEWORKS.includes(n as Framework));
  if (bad.length > 0) throw new Error(`--frameworks: unknown ${bad.join(', ')}; expected ${FRAMEWORKS.join(', ')}`);
  return names as Framework[];
}
