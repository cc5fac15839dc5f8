/**
 * Generated long SWE-agent runs for the context benchmark's long-run regime:
 * `node --import tsx bench/long-trajectories.ts OUTDIR [--count N] [--seed S] [--min-steps A] [--max-steps B]`.
 *
 * The real fixtures are short (4–21 steps); real SWE-bench runs are 30–100+ steps. Each file here is
 * a deterministic, clearly labelled synthetic run (`generated__` file names, `info.generated`) in
 * SWE-agent's newer `.traj` schema, built from real source files on disk (the Python standard
 * library by default): a real function that really crashes on None, SWE-agent's real prompts,
 * command set and output formats, and tracebacks, searches and windows computed from the file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRun, type SyntheticRun } from './long-trajectories/build-run.js';
import { findTargets, type Target } from './long-trajectories/find-targets.js';
import { createRng, type Rng } from './long-trajectories/prng.js';
import { DEFAULT_SOURCE_ROOTS, listPackageDirs, loadRepo, type SourceRepo } from './long-trajectories/source-repo.js';
import { loadTemplates, type SweAgentTemplates } from './long-trajectories/templates.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The shared fixtures the prompts are read from when present. */
export const DEFAULT_TEMPLATE_DIR = path.resolve(here, '..', '..', 'shared', 'fixtures', 'swe-agent-trajectories');

/** Options of generateLongTrajectories. */
export interface LongTrajectoryOptions {
  /** @default 24 */
  count?: number;
  /** @default 1 */
  seed?: number;
  /** @default 30 */
  minSteps?: number;
  /** @default 90 */
  maxSteps?: number;
  /** Folders whose package sub-folders become repositories. @default DEFAULT_SOURCE_ROOTS */
  sourceRoots?: readonly string[];
  /** Folder with the SWE-agent fixtures to take prompts from; `null` forces the embedded copies. @default DEFAULT_TEMPLATE_DIR */
  templateDir?: string | null;
}

/** One generated trajectory: its file name without `.traj` and the JSON to write. */
export interface GeneratedTrajectory {
  name: string;
  json: unknown;
}

/** The fewest steps a run can have (reproduce, locate, fix, verify, submit). */
export const MIN_STEPS = 9;

/** Generates `count` long runs; the same options always give the same JSON. */
export async function generateLongTrajectories(options: LongTrajectoryOptions = {}): Promise<GeneratedTrajectory[]> {
  const count = options.count ?? 24;
  const seed = options.seed ?? 1;
  const minSteps = options.minSteps ?? 30;
  const maxSteps = options.maxSteps ?? 90;
  checkInt('count', count, 1);
  checkInt('seed', seed, 0);
  checkInt('minSteps', minSteps, MIN_STEPS);
  checkInt('maxSteps', maxSteps, minSteps);
  const roots = options.sourceRoots ?? DEFAULT_SOURCE_ROOTS;
  const templates = await loadTemplates(options.templateDir === null ? undefined : (options.templateDir ?? DEFAULT_TEMPLATE_DIR));
  const dirs = await listPackageDirs(roots);
  const repos: { repo: SourceRepo; targets: Target[] }[] = [];
  for (const dir of dirs) {
    const repo = await loadRepo(dir);
    const targets = findTargets(repo);
    if (targets.length > 0) repos.push({ repo, targets });
  }
  if (repos.length === 0)
    throw new Error(`long-trajectories: no Python package with a usable function under sourceRoots ${JSON.stringify(roots)}`);
  const rng = createRng(seed);
  const usedTargets = new Set<string>();
  const out: GeneratedTrajectory[] = [];
  // Repositories are dealt round-robin in a seeded order so a corpus spreads over many packages.
  let deck: typeof repos = [];
  for (let i = 0; i < count; i += 1) {
    if (deck.length === 0) deck = rng.shuffle(repos);
    const { repo, targets } = deck.pop() as (typeof repos)[number];
    const fresh = targets.filter((t) => !usedTargets.has(key(t)));
    const target = rng.pick(fresh.length > 0 ? fresh : targets);
    usedTargets.add(key(target));
    const steps = rng.int(minSteps, maxSteps);
    const run = buildRun(rng, repo, target, steps, templates);
    const name = `generated__long__${repo.pkg}__${target.func.replace(/^_+/, '')}__s${seed}-${String(i + 1).padStart(2, '0')}`;
    out.push({ name, json: toTraj(rng, run, repo, target, templates, seed) });
  }
  return out;
}

/** Writes the trajectories as `<dir>/<name>.traj` and returns the paths. */
export async function writeLongTrajectories(dir: string, options: LongTrajectoryOptions = {}): Promise<string[]> {
  const generated = await generateLongTrajectories(options);
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const g of generated) {
    const file = path.join(dir, `${g.name}.traj`);
    await writeFile(file, `${JSON.stringify(g.json, null, 2)}\n`);
    paths.push(file);
  }
  return paths;
}

function key(t: Target): string {
  return `${t.file.rel}:${t.defLine}`;
}

function checkInt(field: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new Error(`long-trajectories: ${field} must be an integer >= ${min}, got ${value}`);
}

const AGENT = 'primary';

/** The run in SWE-agent's newer schema: tagged `history`, `trajectory` steps, `info.submission`. */
function toTraj(rng: Rng, run: SyntheticRun, repo: SourceRepo, target: Target, templates: SweAgentTemplates, seed: number): unknown {
  const history: Record<string, unknown>[] = [{ message_type: 'system_prompt', role: 'system', content: templates.system, agent: AGENT }];
  if (templates.demonstration)
    history.push({ message_type: 'demonstration', role: 'user', content: templates.demonstration, agent: AGENT, is_demo: true });
  history.push({ message_type: 'observation', role: 'user', content: run.task, agent: AGENT });
  const trajectory: Record<string, unknown>[] = [];
  let sent = 0;
  let context = history.reduce((s, m) => s + String(m.content).length, 0);
  let received = 0;
  for (const [i, s] of run.steps.entries()) {
    const response = `${s.thought}\n\`\`\`\n${s.action}\`\`\``;
    sent += Math.round(context / 4);
    received += Math.round(response.length / 4);
    history.push({
      message_type: 'action',
      role: 'assistant',
      content: response,
      thought: `${s.thought}\n`,
      action: s.action,
      agent: AGENT,
    });
    const last = i === run.steps.length - 1;
    if (!last) {
      const prompt = `(Open file: ${s.after.open_file})\n(Current directory: ${s.after.working_dir})\nbash-$`;
      const content =
        s.observation === '' ? `Your command ran successfully and did not produce any output.\n${prompt}` : `${s.observation}\n${prompt}`;
      history.push({ message_type: 'observation', role: 'user', content, agent: AGENT });
      context += response.length + content.length;
    }
    trajectory.push({
      action: s.action,
      observation: s.observation,
      response,
      state: `${JSON.stringify(s.before)}\n`,
      thought: `${s.thought}\n`,
    });
  }
  const cost = Math.round(sent * 0.01 + received * 0.03) / 1000;
  return {
    environment: 'swe_main',
    trajectory,
    history,
    info: {
      exit_status: 'submitted',
      submission: run.submission,
      model_stats: { total_cost: cost, instance_cost: cost, tokens_sent: sent, tokens_received: received, api_calls: run.steps.length },
      generated: {
        by: 'baton bench/long-trajectories.ts',
        note: 'Synthetic long run for the context benchmark, built from real source files; not a recording of an agent.',
        seed,
        source: repo.dir,
        target: `${target.file.rel}:${target.defLine} ${target.cls ? `${target.cls}.` : ''}${target.func}`,
        templates: templates.source,
        run_id: rng.hex(12),
      },
    },
  };
}

/** `npm run bench -- long-trajectories OUTDIR ...` (bench/run.ts calls the default export). */
export default main;

async function main(argv: string[]): Promise<void> {
  const [outDir, ...rest] = argv;
  if (!outDir || outDir.startsWith('--')) {
    console.error('usage: node --import tsx bench/long-trajectories.ts OUTDIR [--count N] [--seed S] [--min-steps A] [--max-steps B]');
    process.exit(2);
  }
  const options: LongTrajectoryOptions = {};
  const flags: Record<string, keyof LongTrajectoryOptions> = {
    '--count': 'count',
    '--seed': 'seed',
    '--min-steps': 'minSteps',
    '--max-steps': 'maxSteps',
  };
  for (let i = 0; i < rest.length; i += 1) {
    const field = flags[rest[i] as string];
    const value = Number(rest[i + 1]);
    if (!field || !Number.isInteger(value)) {
      console.error(
        `long-trajectories: bad argument ${rest[i]} ${rest[i + 1] ?? ''} (expected --count/--seed/--min-steps/--max-steps INTEGER)`,
      );
      process.exit(2);
    }
    (options as Record<string, number>)[field] = value;
    i += 1;
  }
  const paths = await writeLongTrajectories(outDir, options);
  console.log(`wrote ${paths.length} generated trajectories to ${outDir}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
