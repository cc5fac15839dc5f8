import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import type { CliIO } from '../../src/cli/index.js';

const AGENTS = path.resolve(__dirname, '../supervisor/agents');

function io(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd, env, isTTY: false };
  return { io: value, out: () => out.join(''), err: () => err.join('') };
}

function project(plan: string, providers: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-run-'));
  writeFileSync(path.join(dir, 'plan.yaml'), plan);
  const declared = Object.fromEntries(
    Object.entries(providers).map(([name, script]) => [name, { type: 'command', command: [process.execPath, path.join(AGENTS, script)] }]),
  );
  writeFileSync(path.join(dir, 'baton.config.json'), JSON.stringify({ providers: declared, priority: Object.keys(providers) }));
  return dir;
}

const PLAN = `
tasks:
  - id: docs
    instructions: Write the docs.
    acceptance_criteria:
      - description: the guide exists
        check: test -f guide.md
`;

describe('baton run', () => {
  it('prints the issue-shaped JSON report and exits 0 when every task completed', async () => {
    const dir = project(PLAN, { limited: 'rate-limited.mjs', fixer: 'fixer.mjs' });
    const t = io(dir);
    const code = await runCli(['node', 'baton', 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'memory', '--json'], t.io);
    expect(code).toBe(0);
    const report = JSON.parse(t.out());
    expect(Object.keys(report)).toEqual(['tasks', 'shared']);
    expect(report.tasks[0].id).toBe('docs');
    expect(report.tasks[0].status).toBe('completed');
    expect(Object.keys(report.tasks[0].attempts[0]).sort()).toEqual(
      ['attempt', 'claimed_by', 'files_created', 'files_updated', 'injected_context', 'outcome', 'provider', 'validation_errors'].sort(),
    );
    expect(report.tasks[0].attempts.map((a: { provider: string; outcome: string }) => `${a.provider}:${a.outcome}`)).toEqual([
      'limited:rate_limited',
      'fixer:validation_failed',
      'fixer:ok',
    ]);
    expect(report.tasks[0].attempts[2].injected_context).toMatch(/^--- RETRY CONTEXT ---/);
    expect(t.err()).toContain('docs: attempt 1 · limited · rate_limited');
  });

  it('exits 1 when a task ends blocked, with --providers choosing the chain and --max-retries the attempts', async () => {
    const dir = project(PLAN.replace('test -f guide.md', 'test -d never-made'), { fixer: 'fixer.mjs', limited: 'rate-limited.mjs' });
    const t = io(dir);
    const code = await runCli(
      [
        'node',
        'baton',
        'run',
        'plan.yaml',
        '--config',
        'baton.config.json',
        '--ledger',
        'memory',
        '--providers',
        'fixer',
        '--max-retries',
        '2',
      ],
      t.io,
    );
    expect(code).toBe(1);
    expect(t.out()).toContain('✗ docs: blocked (2 attempts, 2 provider tries)');
    expect(t.out()).not.toContain('limited');
  });

  it('serves /metrics with injection and dispatch counters while running (--metrics-port)', async () => {
    const port = await freePort();
    const grab = `node -e "fetch('http://127.0.0.1:${port}/metrics').then((r) => r.text()).then((t) => require('fs').writeFileSync('metrics.txt', t))"`;
    const plan = `${PLAN}      - description: metrics are served\n        check: ${JSON.stringify(grab)}\n`;
    const dir = project(plan, { limited: 'rate-limited.mjs', fixer: 'fixer.mjs' });
    const t = io(dir);
    expect(
      await runCli(
        ['node', 'baton', 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'memory', '--metrics-port', String(port)],
        t.io,
      ),
    ).toBe(0);
    const metrics = readFileSync(path.join(dir, 'metrics.txt'), 'utf8');
    expect(metrics).toMatch(/context_injection_count\{type="circuit_breaker"\} [1-9]/);
    expect(metrics).toMatch(/baton_dispatches_total\{provider="limited",outcome="rate_limited"\} [1-9]/);
    expect(metrics).toMatch(/baton_breaker_state\{provider="limited"\} 2/);
  });

  it('redraws one status line on a TTY and prints a line per finished task', async () => {
    const dir = project(PLAN, { fixer: 'fixer.mjs' });
    const out: string[] = [];
    const tty: CliIO = { stdout: (t) => out.push(t), stderr: () => {}, cwd: dir, env: process.env, isTTY: true };
    expect(await runCli(['node', 'baton', 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'memory'], tty)).toBe(0);
    const text = out.join('');
    expect(text).toContain('\r\x1b[2Kdocs: attempt 2 · fixer · running');
    expect(text).toContain('✓ docs completed\n');
    expect(text.split('\n').filter((l) => l.includes('· running')).length).toBeLessThanOrEqual(2);
  });

  it('exits 2 naming the problem on bad input', async () => {
    const dir = project('tasks: [{ id: a }]', { fixer: 'fixer.mjs' });
    const bad = io(dir);
    expect(await runCli(['node', 'baton', 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'memory'], bad.io)).toBe(2);
    expect(bad.err()).toContain('tasks[0] (id "a").instructions');
    const flag = io(dir);
    expect(await runCli(['node', 'baton', 'run', 'plan.yaml', '--max-retries', 'x'], flag.io)).toBe(2);
    expect(flag.err()).toContain('--max-retries must be a positive integer');
    const unknown = project(PLAN, { fixer: 'fixer.mjs' });
    const u = io(unknown);
    expect(
      await runCli(
        ['node', 'baton', 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'memory', '--providers', 'nope'],
        u.io,
      ),
    ).toBe(2);
    expect(u.err()).toContain('nope');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
