import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type ContextBenchReport,
  DEFAULT_FACT_BUDGETS,
  defaultTrajectoryFiles,
  expandTrajectoryPaths,
  FACT_STRATEGIES,
  type FactBenchReport,
  parseBudgets,
  readSessionReplays,
  readTrajectories,
  runContextBench,
  runFactBench,
  SHARED_SESSIONS_DIR,
  STRATEGIES,
  trajectoryReplay,
} from '../../../bench/index.js';
import { type CliIO, EXIT_OK, parsePositiveInt, printResult, type CommonOptions } from '../../context.js';
import { toWireCase } from '../../../util/index.js';

/** Flags of `baton bench context`. */
export interface BenchContextOptions extends CommonOptions {
  traj?: string[];
  /** `true` for the flag without paths. */
  sessions?: string[] | true;
  budget?: string;
  out?: string;
  latencyRuns?: string;
}

/** Runs the replay over the given (or shared) trajectories and prints the report; exit 0. */
export async function runBenchContext(io: CliIO, options: BenchContextOptions): Promise<number> {
  if (options.sessions) return runBenchSessions(io, options);
  const budgets = parseBudgets(options.budget ?? '4096,8192,16384');
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

/** `--sessions`: agent CLI sessions (and any --traj trajectories) scored on issue 36's six facts. */
async function runBenchSessions(io: CliIO, options: BenchContextOptions): Promise<number> {
  const budgets = parseBudgets(options.budget ?? DEFAULT_FACT_BUDGETS.join(','));
  const given = options.sessions === true ? [] : (options.sessions ?? []);
  const paths = given.length > 0 ? given.map((p) => path.resolve(io.cwd, p)) : [path.resolve(io.cwd, SHARED_SESSIONS_DIR)];
  const trajFiles = options.traj?.length ? await expandTrajectoryPaths(options.traj.map((f) => path.resolve(io.cwd, f))) : [];
  const replays = [
    ...(await readSessionReplays(paths)),
    ...(await Promise.all(trajFiles.map((f) => readTrajectories(f)))).flat().map(trajectoryReplay),
  ];
  const report = await runFactBench(replays, { budgets });
  if (options.out) await writeFile(path.resolve(io.cwd, options.out), `${JSON.stringify(report, null, 2)}\n`);
  printResult(io, options, report, () => renderFactReport(report));
  return EXIT_OK;
}

function renderFactReport(report: FactBenchReport): string {
  const lines = ['client    budget  strategy task  files error last3 plan  req   macro  system task  over'];
  for (const [client, entry] of Object.entries(report.clients)) {
    for (const [budget, scores] of Object.entries(entry.budgets)) {
      for (const s of FACT_STRATEGIES) {
        const m = scores[s];
        const x = m.facts;
        const facts = [x.task, x.files_edited, x.newest_error, x.last_actions, x.open_plan, x.newest_request].map(f).join(' ');
        lines.push(
          `${client.padEnd(9)} ${budget.padEnd(7)} ${s.padEnd(8)} ${facts} ${f(m.macro)}  ${f(m.system_lines_kept)}  ${f(m.task_lines_kept)} ${f(m.over_budget_rate)}`,
        );
      }
    }
    const times = Object.entries(entry.budgets).map(([b, s]) => `${b}: p50 ${s.baton.assembly_ms?.p50} p95 ${s.baton.assembly_ms?.p95}`);
    lines.push(`${client}: ${entry.replays} runs, ${entry.builds} model calls; baton ms per call ${times.join('; ')}`);
  }
  lines.push(`(${report.tokenizer}; facts: task, files edited, newest error, last 3 actions, open plan, newest request; - = none)`);
  return lines.join('\n');
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

function f(x: number | null): string {
  return x === null ? '-    ' : x.toFixed(3).padEnd(5);
}
