import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { runBaton } from '../helpers/cli.js';
import { makeRepo } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function workspace() {
  const repo = makeRepo();
  cleanups.push(repo.cleanup);
  const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: repo.dir });
  await ledger.createTask({
    id: 'docs',
    title: 'Write the docs',
    status: 'in_progress',
    acceptanceCriteria: [{ description: 'docs build' }],
  });
  await ledger.close();
  return repo;
}

describe('baton refresh', () => {
  it('prints the narrative markdown for a task', async () => {
    const repo = await workspace();
    const run = await runBaton(['refresh', 'docs', '--format', 'narrative'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('# Session Context Summary');
    expect(run.stdout).toContain('You are working on **Task docs**');
    expect(run.stdout).toContain('- [ ] docs build');
  });

  it('prints text unless --json, as its --help says: the narrative by default', async () => {
    const repo = await workspace();
    const run = await runBaton(['refresh', 'docs'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# Session Context Summary/);
    expect(() => JSON.parse(run.stdout) as unknown).toThrow();
    const help = await runBaton(['refresh', '--help'], { cwd: repo.dir });
    expect(help.stdout).toContain('--json');
    expect(help.stdout).toMatch(/print machine-readable JSON instead of\s+text/);
  });

  it('prints JSON with metadata under --json, saves a snapshot with --save, and returns a delta with --since', async () => {
    const repo = await workspace();
    const saved = await runBaton(['refresh', '--json', '--save'], { cwd: repo.dir });
    expect(saved.code).toBe(0);
    const body = saved.json<{ current_task: { id: string }; metadata: { snapshot_id: string; token_estimate: number } }>();
    expect(body.current_task.id).toBe('docs');
    expect(body.metadata.token_estimate).toBeLessThanOrEqual(4000);
    const since = await runBaton(['refresh', '--json', '--since', body.metadata.snapshot_id, '--format', 'minimal'], { cwd: repo.dir });
    expect(since.json<{ delta: { base: string } }>().delta.base).toBe(body.metadata.snapshot_id);
  });

  it('exits 2 and names the flag for an unknown format', async () => {
    const repo = await workspace();
    const run = await runBaton(['refresh', '--format', 'verbose'], { cwd: repo.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--format must be one of minimal, standard, detailed, narrative; got "verbose"');
  });

  it('exits 2 for an unknown task', async () => {
    const repo = await workspace();
    const run = await runBaton(['refresh', 'ghost', '--json'], { cwd: repo.dir });
    expect(run.code).toBe(2);
    expect(run.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
  });
});
