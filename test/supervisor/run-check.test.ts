import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/supervisor/index.js';

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), 'baton-check-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('runCheck', () => {
  it('passes on exit 0 and runs in the given folder', async () => {
    const result = await runCheck('pwd; echo fine', { cwd, timeoutMs: 10_000 });
    expect(result.ok).toBe(true);
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain(cwd);
    expect(result.output).toContain('fine');
  });

  it('fails on a non-zero exit and keeps stdout and stderr in order', async () => {
    const result = await runCheck('echo one; echo two >&2; echo three; exit 4', { cwd, timeoutMs: 10_000 });
    expect(result.ok).toBe(false);
    expect(result.exitCode).toBe(4);
    expect(result.output).toBe('one\ntwo\nthree\n');
  });

  it('kills a check that runs past its time limit', async () => {
    const result = await runCheck('echo started; sleep 30', { cwd, timeoutMs: 500, killGraceMs: 200 });
    expect(result.ok).toBe(false);
    expect(result.timedOut).toBe(true);
    expect(result.output).toContain('started');
    expect(result.output).toContain('timed out after 500 ms');
  });

  it('caps a huge check output, keeping head and tail', async () => {
    const result = await runCheck('echo HEAD; head -c 5000000 /dev/zero | tr "\\0" b; echo; echo TAIL', {
      cwd,
      timeoutMs: 30_000,
      outputCapBytes: 4096,
    });
    expect(result.ok).toBe(true);
    expect(result.outputTruncated).toBe(true);
    expect(result.output.startsWith('HEAD\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('TAIL')).toBe(true);
    expect(result.output.length).toBeLessThan(4300);
  });
});
