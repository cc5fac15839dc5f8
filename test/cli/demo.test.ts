import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import type { CliIO } from '../../src/cli/index.js';

function io() {
  const out: string[] = [];
  const value: CliIO = { stdout: (t) => out.push(t), stderr: () => {}, cwd: process.cwd(), env: {}, isTTY: false };
  return { io: value, out: () => out.join('') };
}

describe('baton demo', () => {
  it('injects context at the three seams and the example agents act on it until every task completes', async () => {
    const t = io();
    const code = await runCli(['node', 'baton', 'demo', '--json', '--keep'], t.io);
    const result = JSON.parse(t.out());
    try {
      expect(code).toBe(0);
      expect(result.tasks.map((x: { id: string; status: string }) => `${x.id}:${x.status}`)).toEqual([
        'greeting:completed',
        'farewell:completed',
      ]);
      const seams = result.injected.map((i: { task: string; attempt: number; seam: string }) => `${i.task}#${i.attempt}:${i.seam}`);
      expect(seams).toEqual(['greeting#1:circuit_breaker', 'greeting#1:helper', 'greeting#2:retry']);
      const [switchCtx, helperCtx, retryCtx] = result.injected.map((i: { context: string }) => i.context);
      expect(switchCtx).toMatch(/^--- PROVIDER SWITCH CONTEXT ---\nPrevious provider \(quota\) failed: rate_limited\n/);
      expect(helperCtx).toMatch(
        /^--- HELPER AGENT CONTEXT ---\nAttempt #1 \(0 previous retries\) - validation failed\nAttempt 1 touched: greet.js - error: "the unit test exists/,
      );
      expect(retryCtx).toContain('- the unit test exists - check failed: test -f test/greet.test.js');
      expect(retryCtx).toContain('helper check failed: grep -q "greet(" README.md');
      // The agent fixed exactly what the retry context named.
      const readme = readFileSync(path.join(result.workspace, 'README.md'), 'utf8');
      expect(readme).toContain('greet(name)');
      expect(readFileSync(path.join(result.workspace, 'test/greet.test.js'), 'utf8')).toContain('RETRY CONTEXT');
      const greeting = result.tasks[0];
      expect(
        greeting.attempts.map((a: { attempt: number; provider: string; outcome: string }) => `${a.attempt}:${a.provider}:${a.outcome}`),
      ).toEqual(['1:quota:rate_limited', '1:builder:validation_failed', '1:verifier:ok', '2:builder:ok']);
      expect(greeting.attempts[3].injected_context).toBe(retryCtx);
      // The main job runs on the embedded SQLite ledger, which baton status can read afterwards.
      expect(result.ledger).toMatch(/^sqlite:.*\.baton\/agent\.db$/);
      const status = io();
      expect(await runCli(['node', 'baton', 'status', '--json', '--ledger', result.ledger], status.io)).toBe(0);
      const report = JSON.parse(status.out());
      expect(report.ledger.backend).toBe('sqlite');
      expect(report.tasks.completed).toBe(2);
      expect(report.open_breakers.map((b: { provider: string }) => b.provider)).toEqual(['quota']);
      // The ledger lives beside the workspace, so its files are never measured as the agents' changes.
      const measured = result.tasks.flatMap((t: { attempts: { files_created: string[] }[] }) => t.attempts.flatMap((a) => a.files_created));
      expect(measured.some((f: string) => f.includes('.baton'))).toBe(false);
    } finally {
      if (result.workspace) rmSync(path.dirname(result.workspace), { recursive: true, force: true });
    }
  });

  it('prints what was injected at each seam in text mode and removes its workspace', async () => {
    const t = io();
    expect(await runCli(['node', 'baton', 'demo'], t.io)).toBe(0);
    const text = t.out();
    expect(text).toContain('injected at the provider switch seam:\n    | --- PROVIDER SWITCH CONTEXT ---');
    expect(text).toContain('injected at the retry seam:\n    | --- RETRY CONTEXT ---');
    expect(text).toContain('injected at the helper agent seam:\n    | --- HELPER AGENT CONTEXT ---');
    const workspace = text.match(/example plan in (\S+)/)?.[1] ?? '';
    expect(workspace).not.toBe('');
    expect(existsSync(workspace)).toBe(false);
    expect(existsSync(path.dirname(workspace))).toBe(false);
  });
});
