import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import type { CliIO } from '../../src/cli/index.js';
import { openLedger } from '../../src/ledger/index.js';
import { renderMetrics } from '../../src/observability/index.js';

// Real agents: shell scripts that do the work, then die of a signal instead of exiting.
function project(agentScript: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-signal-'));
  writeFileSync(
    path.join(dir, 'plan.yaml'),
    'tasks:\n  - id: job\n    instructions: Produce out.txt.\n    retry_policy: { max_retries: 1 }\n    acceptance_criteria:\n      - description: out.txt exists\n        check: test -f out.txt\n',
  );
  writeFileSync(
    path.join(dir, 'baton.config.json'),
    JSON.stringify({ providers: { agent: { type: 'command', command: ['sh', '-c', agentScript] } }, priority: ['agent'] }),
  );
  return dir;
}

async function run(dir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd: dir, env: process.env, isTTY: false };
  const code = await runCli(
    ['node', 'baton', 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db', '--json'],
    io,
  );
  return { code, report: JSON.parse(out.join('')), progress: err.join('') };
}

describe('an agent ended by a signal', () => {
  it.each([
    ['SIGKILL', 'kill -KILL $$', 'killed: out of memory, or by another process'],
    ['SIGSEGV', 'kill -SEGV $$', 'crashed: segmentation fault'],
  ])('is a failed try (killed_by_signal, %s) even though its file is there, and the task is not completed', async (signal, kill, cause) => {
    const dir = project(`echo done > out.txt; echo '{"outcome":"ok"}'; ${kill}; sleep 5`);
    const { code, report, progress } = await run(dir);

    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('done\n');
    expect(code).toBe(1);
    expect(report.tasks[0].status).toBe('blocked');
    expect(report.tasks[0].attempts.map((a: { outcome: string; signal?: string }) => `${a.outcome}:${a.signal}`)).toEqual([
      `killed_by_signal:${signal}`,
    ]);
    expect(progress).toContain(`job: attempt 1 · agent · killed_by_signal (${signal})`);
    expect(await renderMetrics()).toMatch(/baton_dispatches_total\{provider="agent",outcome="killed_by_signal"\} [1-9]/);

    const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: dir });
    try {
      const [dispatch] = await ledger.lastDispatches('job', 5);
      expect(dispatch).toMatchObject({ status: 'failed', outcome: 'killed_by_signal', signal });
      expect(dispatch?.exitCode).toBeUndefined();
      expect(dispatch?.result).toBe(`agent was ended by signal ${signal} (${cause}) before it exited`);
      // The group was on record while it ran (item: a resumed run can end it).
      expect(dispatch?.agentProcess?.pid).toBeGreaterThan(1);
      expect(dispatch?.agentProcess?.startTime).toMatch(/^\d+$/);
      expect((await ledger.getTask('job'))?.blockReason).toContain(`signal ${signal}`);
      // Counts toward the breaker like a crash, without opening it at once.
      expect(await ledger.getBreaker('agent')).toMatchObject({ state: 'closed', failureCount: 1, reason: 'killed_by_signal' });
    } finally {
      await ledger.close();
    }
  });

  it("stays a timeout when the SIGKILL came from Baton's own time limit", async () => {
    const dir = project('echo started; trap "" TERM; sleep 30');
    writeFileSync(
      path.join(dir, 'baton.config.json'),
      JSON.stringify({
        providers: { agent: { type: 'command', command: ['sh', '-c', 'trap "" TERM; sleep 30'], timeoutMs: 300 } },
        priority: ['agent'],
      }),
    );
    const { code, report } = await run(dir);
    expect(code).toBe(1);
    expect(report.tasks[0].attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['timeout']);
  }, 20_000);
});
