/**
 * The context replay benchmark in the long-run regime: `npm run bench -- context-long [--count N]
 * [--seed S] [--budget 4096,8192,16384]`. The shared real trajectories are short (4-21 steps), so
 * this generates labelled synthetic SWE-agent runs of 30-90 steps from real source files (see
 * long-trajectories.ts), replays them with the same code as `baton bench context`, and writes
 * bench/results/context-long.json with the corpus size beside the report.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFull, parseBudgets, readTrajectories, runContextBench, splitHistory } from '../src/bench/index.js';
import { countTokens } from '../src/tokens/index.js';
import { writeLongTrajectories } from './long-trajectories.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export default async function run(args: string[]): Promise<void> {
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const count = Number(value('--count') ?? 24);
  const seed = Number(value('--seed') ?? 1);
  const budgets = value('--budget') === undefined ? undefined : parseBudgets(value('--budget') as string);
  const dir = await mkdtemp(path.join(tmpdir(), 'baton-long-traj-'));
  try {
    const files = await writeLongTrajectories(dir, { count, seed });
    const trajectories = (await Promise.all(files.map((f) => readTrajectories(f)))).flat();
    const sizes = trajectories.map((t) => countTokens(buildFull(splitHistory(t.events)))).sort((a, b) => a - b);
    const steps = trajectories.map((t) => t.steps.length).sort((a, b) => a - b);
    console.error(`replaying ${trajectories.length} generated runs (${steps[0]}-${steps.at(-1)} steps) ...`);
    const report = await runContextBench(trajectories, budgets ? { budgets } : {});
    const corpus = {
      generated: true,
      seed,
      steps_min: steps[0],
      steps_max: steps.at(-1),
      history_tokens_min: sizes[0],
      history_tokens_median: sizes[Math.floor(sizes.length / 2)],
      history_tokens_max: sizes.at(-1),
    };
    const out = path.join(here, 'results', 'context-long.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify({ corpus, ...report }, null, 2)}\n`);
    console.log(JSON.stringify({ corpus, ...report }, null, 2));
    console.error(`wrote ${out}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
