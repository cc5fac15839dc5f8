/**
 * The spawner (children spawned directly): short commands return their output and never throw for
 * a failing command; supervised processes run in their own process group, with stdin, capped
 * head-and-tail output, a timeout and an abort that stop the whole group (grandchildren too).
 * Real child processes.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandStartError, runCommand, runSupervised, type SuperviseRequest } from '../../src/spawner/index.js';

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), 'baton-spawn-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const supervised = (command: string, extra: Partial<SuperviseRequest> = {}): SuperviseRequest => ({
  file: 'sh',
  args: ['-c', command],
  cwd,
  env: {},
  input: '',
  timeoutMs: 20_000,
  killGraceMs: 500,
  outputCapBytes: 1 << 20,
  ...extra,
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until `pid` is gone; false if it is still there after `ms` (a killed process is reaped a moment later). */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; alive(pid); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > end) return false;
  return true;
}

describe('runCommand', () => {
  it('returns stdout as bytes, stderr, and the exit code of a failing command without throwing', async () => {
    const result = await runCommand({
      file: 'sh',
      args: ['-c', 'printf "a\\nb"; echo oops >&2; exit 3'],
      cwd,
      maxBytes: 1 << 20,
      maxStderr: 100,
    });
    expect(result).toMatchObject({ code: 3, signal: null, stderr: 'oops\n', truncated: false, timedOut: false });
    expect(result.stdout.toString()).toBe('a\nb');
  });

  it('adds env to the environment, feeds stdin, and cuts stdout at maxBytes (flagged)', async () => {
    const env = await runCommand({
      file: 'sh',
      args: ['-c', 'echo "$EXTRA:$HOME"'],
      cwd,
      env: { EXTRA: 'x' },
      maxBytes: 1 << 20,
      maxStderr: 100,
    });
    expect(env.stdout.toString()).toBe(`x:${process.env.HOME}\n`);
    const input = await runCommand({ file: 'cat', args: [], cwd, input: Buffer.from('from stdin'), maxBytes: 1 << 20, maxStderr: 100 });
    expect(input.stdout.toString()).toBe('from stdin');
    const cut = await runCommand({ file: 'sh', args: ['-c', 'head -c 100000 /dev/zero'], cwd, maxBytes: 1_000, maxStderr: 100 });
    expect(cut.truncated).toBe(true);
    expect(cut.stdout.length).toBe(1_000);
  });

  it('throws CommandStartError (ENOENT) for a missing binary or folder, and stops a command past its timeout', async () => {
    const missing = await runCommand({ file: 'no-such-binary-xyz', args: [], cwd, maxBytes: 100, maxStderr: 100 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CommandStartError);
    expect((missing as CommandStartError).code).toBe('ENOENT');
    const noFolder = await runCommand({ file: 'true', args: [], cwd: path.join(cwd, 'gone'), maxBytes: 100, maxStderr: 100 }).catch(
      (e: unknown) => e,
    );
    expect(noFolder).toBeInstanceOf(CommandStartError);
    const slow = await runCommand({ file: 'sleep', args: ['30'], cwd, maxBytes: 100, maxStderr: 100, timeoutMs: 100 });
    expect(slow).toMatchObject({ timedOut: true, code: null, signal: 'SIGTERM' });
  });
});

describe('runSupervised', () => {
  it('passes stdin, reports the pid at start, and keeps the head and tail of a large output', async () => {
    let pid = 0;
    const result = await runSupervised(
      supervised('cat; head -c 300000 /dev/zero | tr "\\0" x; echo END', { input: 'prompt\n', outputCapBytes: 1_000 }),
      {
        onSpawn: (p) => {
          pid = p;
        },
      },
    );
    expect(pid).toBeGreaterThan(0);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false, stdoutTruncated: true });
    expect(result.stdout.startsWith('prompt\nxxx')).toBe(true);
    expect(result.stdout.endsWith('xxxEND\n')).toBe(true);
    expect(result.stdout).toContain('bytes of output omitted');
  });

  it('kills the whole process group, a background grandchild too, when the timeout passes', async () => {
    const pidFile = path.join(cwd, 'grandchild.pid');
    const result = await runSupervised(supervised(`sleep 300 & echo $! > ${pidFile}; wait`, { timeoutMs: 300 }));
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeUndefined();
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8').trim()), 5_000)).toBe(true);
  });

  it('stops the group when aborted, and leaves no background job behind after a normal exit', async () => {
    const stop = new AbortController();
    const running = runSupervised(supervised('sleep 300'), { signal: stop.signal, onSpawn: () => stop.abort() });
    expect(await running).toMatchObject({ aborted: true, signal: 'SIGTERM' });
    const pidFile = path.join(cwd, 'background.pid');
    const result = await runSupervised(supervised(`sleep 300 & echo $! > ${pidFile}; echo done`));
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n' });
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8').trim()), 5_000)).toBe(true);
  });

  it('reports why a process could not start instead of throwing', async () => {
    const result = await runSupervised(supervised('', { file: 'no-such-agent-xyz', args: [] }));
    expect(result.spawnError?.code).toBe('ENOENT');
    expect(result.exitCode).toBeUndefined();
  });

  it('reports E2BIG (which Node throws from spawn) as a start failure instead of throwing', async () => {
    const result = await runSupervised(supervised('true', { file: 'sh', args: ['-c', 'true', 'x'.repeat(300_000)] }));
    expect(result.spawnError?.code).toBe('E2BIG');
    expect(result.spawnError?.message).toMatch(/^spawn E2BIG: \d+ bytes of arguments and environment, more than the system takes$/);
    expect(result.exitCode).toBeUndefined();
  });
});
