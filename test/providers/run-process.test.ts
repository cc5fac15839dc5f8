import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/providers/index.js';

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), 'baton-proc-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The SIGTERM sent when the main process exits is delivered and the killed job reaped a moment
 * after the pipes close, so poll for a bounded time; a job Baton never killed stays alive throughout.
 */
async function isGoneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('runProcess', () => {
  it('does not leave background jobs of the agent running after it exits', async () => {
    const pidFile = path.join(cwd, 'bg.pid');
    const result = await runProcess(['sh', '-c', `sleep 300 & echo $! > ${pidFile}; echo done`], {
      cwd,
      timeoutMs: 10_000,
      killGraceMs: 500,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('done\n');
    expect(await isGoneWithin(Number(readFileSync(pidFile, 'utf8').trim()), 2_000)).toBe(true);
  });

  it('reports a missing working directory instead of blaming the binary', async () => {
    const result = await runProcess(['sh', '-c', 'true'], { cwd: path.join(cwd, 'missing'), timeoutMs: 1_000 });
    expect(result.spawnError?.code).toBe('ENOCWD');
    expect(result.spawnError?.message).toContain('missing');
  });

  it('passes only the given environment when inheritEnv is false', async () => {
    const result = await runProcess(['/bin/sh', '-c', 'test -z "$HOME" && echo "unset $ONLY"'], {
      cwd,
      timeoutMs: 5_000,
      inheritEnv: false,
      env: { ONLY: 'this' },
    });
    expect(result.stdout).toBe('unset this\n');
  });
});
