import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type ContextBenchReport,
  defaultTrajectoryFiles,
  expandTrajectoryPaths,
  parseBudgets,
  readTrajectories,
  runContextBench,
  STRATEGIES,
} from '../../../bench/index.js';
import { type CliIO, EXIT_OK, parsePositiveInt, printResult } from '../../context.js';
import { toWireCase } from '../../../util/index.js';
import type { BenchContextOptions } from './options.js';

/** Runs the replay over the given (or shared) trajectories and prints the report; exit 0. */
export async function runBenchContext(io: CliIO, options: BenchContextOptions): Promise<number> {
  const budgets = parseBudgets(options.budget);
  const latencyRuns = parsePositiveInt(options.latencyRuns ?? '1', '--latency-runs');
  const files = options.traj?.length
    ? await expandTrajectoryPaths(options.traj.map((f) => path.resolve(io.cwd, f)))
    : await defaultTrajectoryFiles(io.cwd);
  const trajectories = (await Promise.all(files.map((f) => readTrajectories(f)))).flat();
  const report = await runContextBench(trajectories, { budgets, latencyRuns });
  if (options.out) await writeFile(path.resolve(io.cwd, options.out), `${JSON.stringify(toWireCase(report), null, 2)}\n`);
  printResult(io, options, report, () => renderReport(report));
  return EXIT_OK;
}

function renderReport(report: ContextBenchReport): string {
  const lines = [`${report.trajectories} trajectories, ${report.builds} builds per strategy and budget (${report.tokenizer})`];
  lines.push('budget  strategy          over   trr     goal  edited error last3 macro  prefix');
  for (const [budget, scores] of Object.entries(report.budgets)) {
    for (const s of STRATEGIES) {
      const m = scores[s];
      const k = m.kfr;
      lines.push(
        `${budget.padEnd(7)} ${s.padEnd(17)} ${f(m.over_budget_rate)} ${f(m.trr)} ${f(k.goal)} ${f(k.edited_paths)} ${f(k.last_error)} ${f(k.last3)} ${f(k.macro)} ${f(m.prefix_stability)}`,
      );
    }
  }
  const l = report.latency_ms;
  lines.push(`baton latency ms: cold p50 ${l.cold_p50} p95 ${l.cold_p95}; incremental p50 ${l.incremental_p50} p95 ${l.incremental_p95}`);
  return lines.join('\n');
}

function f(x: number): string {
  return x.toFixed(3).padEnd(5);
}
