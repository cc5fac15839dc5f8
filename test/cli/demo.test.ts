import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import type { CliIO } from '../../src/cli/index.js';

function io() {
  const out: string[] = [];
  const value: CliIO = { stdout: (t) => out.push(t), stderr: () => {}, cwd: process.cwd(), env: process.env, isTTY: false };
  return { io: value, out: () => out.join('') };
}

describe('baton demo', () => {
  it('injects context at the four seams (merge conflict in part 2) and the example agents act on it until every task completes', async () => {
    const t = io();
    const code = await runCli(['node', 'baton', 'demo', '--json', '--keep'], t.io);
    const result = JSON.parse(t.out());
    try {
      expect(code).toBe(0);
      expect(result.tasks.map((x: { id: string; status: string }) => `${x.id}:${x.status}`)).toEqual([
        'greeting:completed',
        'farewell:completed',
        'motto-en:completed',
        'motto-fr:completed',
      ]);
      const seams = result.injected.map((i: { task: string; attempt: number; seam: string }) => `${i.task}#${i.attempt}:${i.seam}`);
      // Part 2: the two motto tasks ran at once; whichever was integrated second met the conflict.
      const conflicted = seams.find((s: string) => s.endsWith(':merge_conflict')) ?? '';
      expect(['motto-en#2:merge_conflict', 'motto-fr#2:merge_conflict']).toContain(conflicted);
      expect(seams).toEqual(['greeting#1:circuit_breaker', 'greeting#1:helper', 'greeting#2:retry', conflicted]);
      const [switchCtx, helperCtx, retryCtx, conflictCtx] = result.injected.map((i: { context: string }) => i.context);
      const other = conflicted.startsWith('motto-en') ? 'motto-fr' : 'motto-en';
      expect(conflictCtx.trimEnd()).toBe(
        [
          '--- MERGE CONFLICT CONTEXT ---',
          'Your passing result conflicted with work integrated meanwhile; this attempt starts from the new base.',
          'Conflicting files: MOTTO.md',
          `Changed by: task ${other} (attempt 1)`,
          "Keep their changes as they now are in these files; redo this task's change on top of them.",
          '--- END CONTEXT ---',
        ].join('\n'),
      );
      // Both results are on the part's branch, each line once.
      const motto = execFileSync('git', ['show', 'main:MOTTO.md'], { cwd: result.parallel_workspace, encoding: 'utf8' });
      expect(motto.split('\n').filter(Boolean).sort()).toEqual(['Garde le contexte.', 'Keep the context.']);
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
      expect(report.tasks.completed).toBe(4);
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
    expect(text).toMatch(/\[motto-(en|fr)\] injected at the merge conflict seam:\n {4}\| --- MERGE CONFLICT CONTEXT ---/);
    expect(text).toContain('Seams with injected context: circuit_breaker, helper, retry, merge_conflict.');
    const workspace = text.match(/example plan in (\S+)/)?.[1] ?? '';
    expect(workspace).not.toBe('');
    expect(existsSync(workspace)).toBe(false);
    expect(existsSync(path.dirname(workspace))).toBe(false);
  });
});
