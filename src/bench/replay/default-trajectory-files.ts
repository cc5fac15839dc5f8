import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../../errors/index.js';
import { MIN_BUDGET_TOKENS } from '../../loop/index.js';

/** Where the shared development trajectories live, relative to the project root. */
export const SHARED_TRAJECTORY_DIR = '../shared/fixtures/swe-agent-trajectories';

/**
 * The shared fixture trajectories (SWE-agent `.traj`), sorted; they are never copied into the repository.
 * @throws BatonError('NOT_FOUND') when the folder is absent (as in a user's clone).
 */
export async function defaultTrajectoryFiles(projectRoot: string): Promise<string[]> {
  const dir = path.resolve(projectRoot, SHARED_TRAJECTORY_DIR);
  try {
    return await trajectoryFilesIn(dir);
  } catch (cause) {
    throw new BatonError('NOT_FOUND', `no --traj given and ${dir} does not exist; pass trajectory files with --traj`, {
      cause,
      details: { dir },
    });
  }
}

/** Parses `4096,8192,16384` (each at least MIN_BUDGET_TOKENS). @throws BatonError('INPUT_INVALID') naming the bad value. */
export function parseBudgets(value: string): number[] {
  const budgets = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .map(Number);
  if (budgets.length === 0 || budgets.some((b) => !Number.isInteger(b) || b < MIN_BUDGET_TOKENS)) {
    throw new BatonError('INPUT_INVALID', `--budget must be a comma-separated list of integers >= ${MIN_BUDGET_TOKENS}, got "${value}"`, {
      details: { field: '--budget', value },
    });
  }
  return budgets;
}

/**
 * Expands the paths given to `--traj`: files stay as they are, a directory becomes its `.traj`
 * and `.jsonl` files, sorted. A missing path is left for the reader to report.
 */
export async function expandTrajectoryPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => undefined);
    if (!info?.isDirectory()) {
      out.push(p);
      continue;
    }
    out.push(...(await trajectoryFilesIn(p)));
  }
  return out;
}

/** The folder's `.traj` and `.jsonl` files, sorted. */
async function trajectoryFilesIn(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => /\.(traj|jsonl)$/.test(n)).sort();
  return names.map((n) => path.join(dir, n));
}
