import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandProvider, createHttpProvider, createProvider } from '../../src/providers/index.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/bin');
const NOW = Date.parse('2026-11-22T12:00:00Z');

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), 'baton-cmd-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** Alive and not a zombie: a container's init may never reap orphans, which still counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('command provider', () => {
  it('hands the prompt on stdin and in BATON_PROMPT_FILE, with task and attempt in the env', async () => {
    const provider = createCommandProvider('echo', { type: 'command', command: [path.join(BIN, 'echo-agent.sh')] });
    const result = await provider.run({ prompt: 'do the thing', cwd, timeoutMs: 10_000, taskId: 'T-1', attempt: 2, model: 'm1' });
    expect(result.outcome.kind).toBe('ok');
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('stdin=do the thing');
    expect(result.output).toContain('file=do the thing');
    expect(result.output).toContain('task=T-1 attempt=2 model=m1');
    expect(result.response).toContain('stdin=do the thing');
    expect(result.model).toBe('m1');
    expect(result.outputTruncated).toBe(false);
  });

  it('takes the outcome, resetAt and model from a last-line JSON report', async () => {
    const provider = createCommandProvider('fast', { type: 'command', command: [path.join(BIN, 'rate-limited.sh')] }, { now: () => NOW });
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 10_000 });
    expect(result.outcome).toEqual({ kind: 'rate_limited', resetAt: Date.parse('2026-11-22T15:00:00Z'), reason: 'slow down' });
    expect(result.model).toBe('fast-1');
    expect(result.exitCode).toBe(1);
  });

  it('accepts resetAt as epoch milliseconds', async () => {
    const script = `echo '{"outcome":"quota_exhausted","resetAt":${NOW + 5000}}'`;
    const provider = createProvider('q', { type: 'command', command: ['sh', '-c', script] });
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 10_000 });
    expect(result.outcome.kind).toBe('quota_exhausted');
    expect(result.outcome.resetAt).toBe(NOW + 5000);
  });

  it('classifies a non-zero exit without JSON by the known quota phrase', async () => {
    const provider = createCommandProvider('cop', { type: 'command', command: [path.join(BIN, 'no-quota.sh')] });
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 10_000 });
    expect(result.outcome.kind).toBe('quota_exhausted');
    expect(result.outcome.reason).toContain('402 You have no quota');
    expect(result.output).toContain('[stderr]');
  });

  it('calls a non-zero exit with unknown text an agent_error', async () => {
    const provider = createProvider('x', { type: 'command', command: ['sh', '-c', 'echo "I give up" >&2; exit 3'] });
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 10_000 });
    expect(result.outcome).toEqual({ kind: 'agent_error', reason: 'I give up' });
    expect(result.exitCode).toBe(3);
  });

  it('reports a missing binary as config_error naming it', async () => {
    const provider = createProvider('ghost', { type: 'command', command: ['/nonexistent/agent-bin'] });
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 10_000 });
    expect(result.outcome.kind).toBe('config_error');
    expect(result.outcome.reason).toContain('/nonexistent/agent-bin');
  });

  it('kills the whole process group on timeout, grandchild included', async () => {
    const pidFile = path.join(cwd, 'grandchild.pid');
    const provider = createCommandProvider(
      'hang',
      { type: 'command', command: [path.join(BIN, 'spawn-grandchild.sh')], env: { GRANDCHILD_PID_FILE: pidFile } },
      { killGraceMs: 500 },
    );
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 1_000 });
    expect(result.outcome.kind).toBe('timeout');
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('stops the run when the abort signal fires', async () => {
    const pidFile = path.join(cwd, 'grandchild2.pid');
    const provider = createCommandProvider(
      'hang',
      { type: 'command', command: [path.join(BIN, 'spawn-grandchild.sh')], env: { GRANDCHILD_PID_FILE: pidFile } },
      { killGraceMs: 500 },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 60_000, signal: controller.signal });
    expect(result.outcome.kind).toBe('interrupted');
    expect(isAlive(Number((await readFile(pidFile, 'utf8')).trim()))).toBe(false);
  });

  it('keeps head and tail of 100 MB of output within the cap', async () => {
    const cap = 64 * 1024;
    const provider = createCommandProvider(
      'big',
      { type: 'command', command: [path.join(BIN, 'huge-output.sh')] },
      { outputCapBytes: cap },
    );
    const result = await provider.run({ prompt: 'x', cwd, timeoutMs: 60_000 });
    expect(result.outcome.kind).toBe('ok');
    expect(result.outputTruncated).toBe(true);
    expect(result.output.startsWith('BEGIN-MARKER\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('END-MARKER')).toBe(true);
    expect(result.output).toMatch(/\[\d+ bytes of output omitted\]/);
    expect(Buffer.byteLength(result.output)).toBeLessThan(cap + 200);
  }, 60_000);
});

describe('provider configs from code', () => {
  it('names an unknown key with the spelling expected, a missing field and an unknown type', () => {
    expect(() => createCommandProvider('a', { type: 'command', cmd: ['node'] } as never)).toThrow(
      'createCommandProvider("a") config is invalid:\n  command: Invalid input: expected array, received undefined\n  unknown key "cmd" (expected one of: command, model, env, timeoutMs)',
    );
    expect(() => createHttpProvider('h', { type: 'http', model: 'm', baseUrl: 'http://127.0.0.1:1/v1' } as never)).toThrow(
      'createHttpProvider("h") config: unknown key "baseUrl" (did you mean "baseURL"?)',
    );
    expect(() => createProvider('b', { type: 'claud' } as never)).toThrow(
      /^createProvider\("b"\) config: type: .*'claude'.*; got "claud"$/,
    );
  });

  it('takes process.env itself as a provider env, and headers whose prototype is not Object.prototype', async () => {
    const provider = createCommandProvider('e', {
      type: 'command',
      command: ['node', '-e', 'process.stdout.write("ok")'],
      env: process.env,
    });
    expect((await provider.run({ prompt: 'x', cwd, timeoutMs: 60_000 })).outcome.kind).toBe('ok');
    class Headers {
      'x-team' = 'core';
    }
    expect(() =>
      createHttpProvider('h', {
        type: 'http',
        model: 'm',
        baseURL: 'http://127.0.0.1:1/v1',
        headers: new Headers() as unknown as Record<string, string>,
      }),
    ).not.toThrow();
    expect(() => createCommandProvider('e', { type: 'command', command: ['node'], env: { PATH: 1 } } as never)).toThrow(
      'createCommandProvider("e") config: env: expected an environment: an object of strings (process.env)',
    );
  });
});
