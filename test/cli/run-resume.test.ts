import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import type { CliIO } from '../../src/cli/index.js';
import { openLedger } from '../../src/ledger/index.js';

const ROOT = path.resolve(__dirname, '../..');
// tsx resolved from this checkout: `--import tsx` would resolve from the child's temporary cwd.
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const SLEEPER = path.join(ROOT, 'test/supervisor/agents/sleeper.mjs');
// Runs the CLI from source in a real child process, so it can be SIGKILLed mid-attempt.
const ENTRY = `import { main } from ${JSON.stringify(path.join(ROOT, 'src/cli/index.ts'))};
process.exitCode = await main(['node', 'baton', ...process.argv.slice(1)]);`;

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(100);
  }
}

describe('baton run crash and resume', () => {
  it("marks the killed run's dispatch interrupted and continues at the next attempt with context", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'baton-resume-'));
    const marker = path.join(dir, '..', `${path.basename(dir)}.marker`);
    writeFileSync(
      path.join(dir, 'plan.yaml'),
      'tasks:\n  - id: job\n    instructions: Produce result.txt.\n    acceptance_criteria:\n      - description: result exists\n        check: test -f result.txt\n',
    );
    writeFileSync(
      path.join(dir, 'baton.config.json'),
      JSON.stringify({
        providers: { sleeper: { type: 'command', command: [process.execPath, SLEEPER], env: { SLEEPER_MARKER: marker } } },
        priority: ['sleeper'],
      }),
    );
    const args = ['run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db'];
    const child = spawn(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', ENTRY, ...args], {
      cwd: dir,
      env: { ...process.env, BATON_LEASE_MS: '1500' },
      stdio: 'ignore',
    });
    try {
      await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '', 20_000);
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(Number(readFileSync(marker, 'utf8')), 'SIGKILL');
    } catch {
      // the agent may already be gone with its group
    }

    const before = await openLedger({ spec: 'sqlite:state.db', cwd: dir });
    expect((await before.lastDispatches('job', 5)).map((d) => d.status)).toEqual(['running']);
    await before.close();

    const out: string[] = [];
    const io: CliIO = { stdout: (t) => out.push(t), stderr: () => {}, cwd: dir, env: { BATON_LEASE_MS: '1500' }, isTTY: false };
    const code = await runCli(['node', 'baton', ...args, '--json'], io);
    expect(code).toBe(0);
    const [task] = JSON.parse(out.join('')).tasks;
    expect(task.status).toBe('completed');
    expect(task.attempts.map((a: { attempt: number; outcome: string }) => `${a.attempt}:${a.outcome}`)).toEqual(['1:interrupted', '2:ok']);
    expect(task.attempts[1].injected_context).toMatch(
      /^--- RETRY CONTEXT ---\nAttempt #2 - Previous validation failures:\n- previous attempt was interrupted before validation\n/,
    );
  });
});
