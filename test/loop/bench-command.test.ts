import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli as main } from '../../src/cli/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'loop');

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), cwd: fixtures, env: process.env, isTTY: false },
    out,
    err,
  };
}

describe('baton bench context', () => {
  it('prints the report shape the issue defines, per budget and strategy', async () => {
    const { io: cli, out } = io();
    const code = await main(
      [
        'node',
        'baton',
        'bench',
        'context',
        '--traj',
        'swe-agent-old.traj',
        'swe-agent-new.traj',
        'openhands-events.jsonl',
        '--budget',
        '512,4096',
        '--latency-runs',
        '1',
        '--json',
      ],
      cli,
    );
    expect(code).toBe(0);
    const report = JSON.parse(out.join(''));
    expect(report).toMatchObject({ tokenizer: 'o200k_base', trajectories: 3, builds: 10 });
    expect(Object.keys(report.budgets)).toEqual(['512', '4096']);
    for (const scores of Object.values<Record<string, unknown>>(report.budgets)) {
      expect(Object.keys(scores)).toEqual(['baton', 'recency', 'mask_m10', 'mask_m10_recency']);
      expect(scores.baton).toMatchObject({
        over_budget_rate: 0,
        kfr: {
          goal: 1,
          edited_paths: expect.any(Number),
          last_error: expect.any(Number),
          last3: expect.any(Number),
          macro: expect.any(Number),
        },
        trr: expect.any(Number),
        prefix_stability: expect.any(Number),
      });
    }
    expect(Object.keys(report.latency_ms)).toEqual(['cold_p50', 'cold_p95', 'incremental_p50', 'incremental_p95']);
  });

  it('accepts a folder for --traj and prints a text table without --json', async () => {
    const { io: cli, out } = io();
    const code = await main(['node', 'baton', 'bench', 'context', '--traj', '.', '--budget', '4096', '--latency-runs', '1'], cli);
    expect(code).toBe(0);
    const text = out.join('');
    expect(text).toContain('5 trajectories, 15 builds per strategy and budget (o200k_base)');
    expect(text).toMatch(/4096\s+baton\s+0\.000/);
  });

  it('rejects a bad budget list with exit 2 and names the flag', async () => {
    const { io: cli, err } = io();
    const code = await main(['node', 'baton', 'bench', 'context', '--traj', 'swe-agent-old.traj', '--budget', '4096,lots'], cli);
    expect(code).toBe(2);
    expect(err.join('')).toContain('--budget must be a comma-separated list');
  });
});

describe('baton bench context --sessions', () => {
  it('replays agent CLI sessions and prints Baton and recency on the six facts per client and budget', async () => {
    const { io: cli, out } = io();
    const code = await main(['node', 'baton', 'bench', 'context', '--sessions', 'sessions', '--budget', '2048', '--json'], cli);
    expect(code).toBe(0);
    const report = JSON.parse(out.join(''));
    expect(Object.keys(report.clients)).toEqual(['claude']);
    expect(report.clients.claude).toMatchObject({ replays: 1, builds: 5 });
    const scores = report.clients.claude.budgets['2048'];
    expect(Object.keys(scores)).toEqual(['baton', 'recency']);
    expect(scores.baton).toMatchObject({
      over_budget_rate: 0,
      facts: { task: 1, files_edited: expect.any(Number), newest_error: expect.any(Number), open_plan: expect.any(Number) },
      system_lines_kept: 1,
      task_lines_kept: 1,
      assembly_ms: { p50: expect.any(Number), p95: expect.any(Number) },
    });
  });

  it('prints a table without --json', async () => {
    const { io: cli, out } = io();
    const code = await main(['node', 'baton', 'bench', 'context', '--sessions', 'sessions/claude-cart.jsonl', '--budget', '4096'], cli);
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/claude\s+4096\s+baton\s+1\.000/);
    expect(out.join('')).toContain('claude: 1 runs, 5 model calls');
  });
});
