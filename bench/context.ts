/**
 * Context replay benchmark (issue 5): `npm run bench -- context [--traj FILE...] [--budget 4096,8192,16384]`.
 * With no --traj it replays every trajectory in ../shared/fixtures/swe-agent-trajectories/.
 * Writes bench/results/context.json with the same code `baton bench context` runs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTrajectoryFiles, expandTrajectoryPaths, parseBudgets, readTrajectories, runContextBench } from '../src/bench/index.js';
import { timeAssembly } from './context-timing.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export default async function run(args: string[]): Promise<void> {
  const files: string[] = [];
  let budgets: number[] | undefined;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--traj') {
      while (args[i + 1] !== undefined && !args[i + 1]?.startsWith('--')) files.push(args[++i] as string);
    } else if (args[i] === '--budget') budgets = parseBudgets(args[++i] ?? '');
  }
  const chosen = files.length > 0 ? await expandTrajectoryPaths(files) : await defaultTrajectoryFiles(path.join(here, '..'));
  const trajectories = (await Promise.all(chosen.map((f) => readTrajectories(f)))).flat();
  const bench = await runContextBench(trajectories, budgets ? { budgets } : {});
  // Per call at 4k, each call's fastest of 3 runs, wall and CPU time (issue 36's assembly target).
  const report = { ...bench, assembly_4k: await timeAssembly(trajectories, 4096, 3) };
  await mkdir(path.join(here, 'results'), { recursive: true });
  const out = path.join(here, 'results', 'context.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.error(`wrote ${out}`);
}
