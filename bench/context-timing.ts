/**
 * Assembly time per call (issue 36's "assembly p95 <= 5 ms per call at 4k"):
 * `npm run bench -- context-timing [--budget 4096] [--runs 3]` times every model call of the shared
 * agent sessions and SWE-agent trajectories as a user's loop makes it (record the new events, then
 * assemble at the budget), and writes bench/results/context-timing.json. bench/context.ts and
 * bench/context-sessions.ts add the same figures to their reports.
 *
 * Each run replays every log with fresh managers; a call's time is its fastest run (a loaded
 * machine's descheduling filtered out), in wall time and in this process's CPU time (user + system,
 * which a busy neighbour does not inflate).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTrajectoryFiles, quantile, readSessionReplays, readTrajectories, SHARED_SESSIONS_DIR } from '../src/bench/index.js';
import { ContextManager, createSnippetExtractor, type LoopEvent } from '../src/loop/index.js';
import { o200kCounter } from '../src/tokens/index.js';

/** A log to replay: its events and the model calls (each the index of the event the call produced). */
export interface TimedLog {
  events: readonly LoopEvent[];
  steps: readonly number[];
}

/** Per-call record-and-assemble times at one budget. */
export interface AssemblyTiming {
  budget: number;
  calls: number;
  runs: number;
  wall_ms: { p50: number; p95: number; max: number };
  cpu_ms: { p50: number; p95: number; max: number };
  load_average: number[];
}

/** Times each call of `logs` at `budget`, `runs` times, keeping each call's fastest run. */
export async function timeAssembly(logs: readonly TimedLog[], budget = 4096, runs = 3): Promise<AssemblyTiming> {
  const extractor = await createSnippetExtractor();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    let n = 0;
    for (const log of logs) {
      const manager = new ContextManager({ counter: o200kCounter }, extractor);
      let fed = 0;
      for (const end of log.steps) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        manager.recordAll(log.events.slice(fed, end));
        manager.assemble({ budget });
        const took = performance.now() - t0;
        const used = process.cpuUsage(c0);
        wall[n] = Math.min(wall[n] ?? Infinity, took);
        cpu[n] = Math.min(cpu[n] ?? Infinity, (used.user + used.system) / 1000);
        n += 1;
        fed = end;
      }
    }
  }
  const stats = (xs: number[]) => ({ p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), max: quantile(xs, 1) });
  return {
    budget,
    calls: wall.length,
    runs,
    wall_ms: stats(wall),
    cpu_ms: stats(cpu),
    load_average: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

const here = path.dirname(fileURLToPath(import.meta.url));

export default async function run(args: string[]): Promise<void> {
  let budget = 4096;
  let runs = 3;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--budget') budget = Number(args[++i]);
    else if (args[i] === '--runs') runs = Number(args[++i]);
  }
  const root = path.join(here, '..');
  const sessions = await readSessionReplays([path.resolve(root, SHARED_SESSIONS_DIR)]);
  const trajectories = (await Promise.all((await defaultTrajectoryFiles(root)).map((f) => readTrajectories(f)))).flat();
  const report = {
    sessions: await timeAssembly(sessions, budget, runs),
    swe_agent: await timeAssembly(trajectories, budget, runs),
  };
  await mkdir(path.join(here, 'results'), { recursive: true });
  const out = path.join(here, 'results', 'context-timing.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.error(`wrote ${out}`);
}
