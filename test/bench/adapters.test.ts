/**
 * `npm run bench -- adapters` on a short loop: each framework runs the recorded loop with and
 * without Baton against the scripted server (which must see one request per step, or the run
 * throws), per-call timings come out for both, and Baton is really in the path: with a small window
 * its last request is smaller than the bare loop's, whose history only grows.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import runAdaptersBench from '../../bench/adapters.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const STEPS = 24;
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Timing {
  p50: number;
  p95: number;
}
interface ModeReport {
  calls_per_run: number;
  between_timers_ms: Timing;
  between_timers_fastest_ms: Timing;
  last_request_chars: number;
}

describe('the adapters benchmark', () => {
  it('measures each framework with and without Baton over the recorded steps', { timeout: 300_000 }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'baton-adapters-bench-'));
    const out = path.join(dir, 'adapters.json');
    const traj = ['swe-agent-new.traj', 'swe-agent-old.traj'].map((f) => path.join(root, 'test', 'fixtures', 'loop', f));
    await runAdaptersBench(['--steps', String(STEPS), '--runs', '1', '--limit', '2048', '--traj', ...traj, '--out', out]);
    const report = JSON.parse(await readFile(out, 'utf8')) as {
      loop: { steps: number };
      frameworks: Record<string, { bare: ModeReport; baton: ModeReport; overhead_per_call_ms: Timing; cpu_ratio: number }>;
    };
    expect(report.loop.steps).toBe(STEPS);
    expect(Object.keys(report.frameworks).sort()).toEqual(['ai-sdk', 'langchain', 'openai-agents']);
    for (const [name, result] of Object.entries(report.frameworks)) {
      for (const mode of [result.bare, result.baton]) expect(mode.calls_per_run, name).toBe(STEPS + 1);
      expect(result.overhead_per_call_ms.p95, name).toBeGreaterThanOrEqual(result.overhead_per_call_ms.p50);
      expect(result.baton.last_request_chars, name).toBeLessThan(result.bare.last_request_chars);
      expect(result.cpu_ratio, name).toBeGreaterThan(0);
    }
  });
});
