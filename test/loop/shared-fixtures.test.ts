import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultTrajectoryFiles, readTrajectory, runContextBench, SHARED_TRAJECTORY_DIR } from '../../src/bench/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = path.resolve(root, SHARED_TRAJECTORY_DIR);
const present = existsSync(shared);
if (!present) console.warn(`[skip] ${shared} is absent (as in a user's clone): shared-trajectory tests skipped; CI runs them.`);

describe.skipIf(!present)('shared SWE-agent trajectories (../shared/fixtures)', () => {
  it('reads every file of both schema generations into steps with a task', async () => {
    const files = await defaultTrajectoryFiles(root);
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const file of files) {
      const t = await readTrajectory(file);
      expect(t.task.length, file).toBeGreaterThan(0);
      expect(t.steps.length, file).toBeGreaterThan(0);
      for (const step of t.steps) expect(t.events[step]?.kind).toBe('assistant');
    }
  });

  it('replays them with Baton never over budget and the goal always kept', async () => {
    const files = (await defaultTrajectoryFiles(root)).filter((f) => /pydicom|function_calling_simple|BabyEncryption|i1\.traj/.test(f));
    const trajectories = await Promise.all(files.map((f) => readTrajectory(f)));
    const report = await runContextBench(trajectories, { budgets: [4096], latencyRuns: 1 });
    const baton = report.budgets['4096']?.baton;
    expect(baton?.over_budget_rate).toBe(0);
    expect(baton?.kfr.goal).toBe(1);
    expect(baton?.kfr.edited_paths).toBeGreaterThanOrEqual(0.99);
    expect(baton?.kfr.macro).toBeGreaterThan(report.budgets['4096']?.recency.kfr.macro ?? 1);
  });
});
