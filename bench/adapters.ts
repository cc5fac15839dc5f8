/**
 * Framework adapters benchmark (issue 27): `npm run bench -- adapters [--steps 200] [--runs 3]
 * [--limit 32000] [--traj FILE_OR_DIR...] [--frameworks ai-sdk,langchain,openai-agents]`.
 *
 * Replays a recorded loop (the shared SWE-agent trajectories joined to `--steps` tool steps) through
 * each framework against a local OpenAI-compatible server that answers at once, with and without
 * Baton's adapter, in alternating runs after one warm-up of each. Per model call it reports what
 * Baton adds (the time between a timer outside the adapter and one around the model call:
 * recording, assembly, conversion), p50/p95; per run the loop's wall time, and the ratio of the
 * medians. Writes bench/results/adapters.json.
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
  await mkdir(path.join(here, 'results'), { recursive: true });
  const out = path.join(here, 'results', 'adapters.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.error(`wrote ${out}`);
}

/** Warm-up of each mode, then `runs` alternating pairs; one fresh server and manager per run. */
async function measure(framework: Framework, loop: RecordedLoop, options: Options, load: number[]) {
  const samples: Record<Mode, (RunSample & { lastRequestChars: number })[]> = { bare: [], baton: [] };
  for (let i = -1; i < options.runs; i += 1) {
    for (const mode of ['bare', 'baton'] as const) {
      const sample = await once(framework, mode, loop, options.limit);
      if (i >= 0) samples[mode].push(sample);
    }
    load.push(Math.round((loadavg()[0] ?? 0) * 10) / 10);
  }
  const summary = (mode: Mode) => {
    const between = samples[mode].flatMap((s) => s.betweenMs);
    const cpu = samples[mode].flatMap((s) => s.betweenCpuMs);
    const walls = samples[mode].map((s) => s.wallMs);
    const cpuRuns = samples[mode].map((s) => s.cpuMs);
    return {
      calls_per_run: samples[mode][0]?.calls ?? 0,
      between_timers_ms: { p50: quantile(between, 0.5), p95: quantile(between, 0.95), max: quantile(between, 1) },
      between_timers_cpu_ms: { p50: quantile(cpu, 0.5), p95: quantile(cpu, 0.95), max: quantile(cpu, 1) },
      wall_ms: { median: quantile(walls, 0.5), runs: walls.map((w) => Math.round(w)) },
      cpu_ms: { median: quantile(cpuRuns, 0.5), runs: cpuRuns.map((w) => Math.round(w)) },
      last_request_chars: samples[mode][0]?.lastRequestChars,
    };
  };
  const bare = summary('bare');
  const baton = summary('baton');
  return {
    bare,
    baton,
    overhead_per_call_ms: baton.between_timers_ms,
    overhead_per_call_cpu_ms: baton.between_timers_cpu_ms,
    wall_ratio: Math.round((baton.wall_ms.median / bare.wall_ms.median) * 100) / 100,
    cpu_ratio: Math.round((baton.cpu_ms.median / bare.cpu_ms.median) * 100) / 100,
  };
}

async function once(
  framework: Framework,
  mode: Mode,
  loop: RecordedLoop,
  limit: number,
): Promise<RunSample & { lastRequestChars: number }> {
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
  const options: Options = { steps: 200, runs: 3, limit: 32_000, traj: [], frameworks: FRAMEWORKS };
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
    else throw new Error(`unknown option ${flag}; expected --steps, --runs, --limit, --traj or --frameworks`);
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
