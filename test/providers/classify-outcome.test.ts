import { describe, expect, it } from 'vitest';
import { CappedOutput, classifyOutcome, parseCommandOutput } from '../../src/providers/index.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const base = { provider: 'x', stdout: '', stderr: '', timedOut: false, now: NOW };

describe('classifyOutcome', () => {
  it('puts Baton’s own timeout above whatever the agent printed or exited with', () => {
    // gemini exits 0 when it receives SIGTERM (recorded): the timeout must still win.
    expect(classifyOutcome({ ...base, exitCode: 0, timedOut: true, stderr: 'rate limit' }).kind).toBe('timeout');
  });

  it('keeps a clean exit ok even when the answer discusses rate limits and quotas', () => {
    const stdout =
      'I added a rate limit middleware.\nIt returns 429 when the quota is used up.\n\nAll tests pass.\nDone.\nSummary written.';
    expect(classifyOutcome({ ...base, exitCode: 0, stdout }).kind).toBe('ok');
  });

  it('still reads a failure phrase on stderr after a clean exit', () => {
    expect(classifyOutcome({ ...base, exitCode: 0, stderr: 'Error: 402 You have no quota' }).kind).toBe('quota_exhausted');
  });

  it('falls back to documented exit codes when no phrase matches', () => {
    expect(classifyOutcome({ ...base, exitCode: 53, exitCodes: { 53: 'agent_error' } }).kind).toBe('agent_error');
    expect(classifyOutcome({ ...base, exitCode: 173, exitCodes: { 173: 'rate_limited' } }).kind).toBe('rate_limited');
    expect(classifyOutcome({ ...base, exitCode: 127 }).kind).toBe('config_error');
  });

  it('lets a structured error outrank a zero exit code', () => {
    const parsed = { structured: true, isError: true, errorText: 'the tests keep failing' };
    expect(classifyOutcome({ ...base, exitCode: 0, parsed })).toEqual({ kind: 'agent_error', reason: 'the tests keep failing' });
  });

  it('reports the abort signal as interrupted', () => {
    expect(classifyOutcome({ ...base, aborted: true }).kind).toBe('interrupted');
  });
});

describe('parseCommandOutput', () => {
  it('reads only the last line as the outcome report and keeps the rest as the response', () => {
    const parsed = parseCommandOutput('{"outcome":"rate_limited"}\nwork done\n{"outcome":"ok","model":"m"}\n');
    expect(parsed).toMatchObject({ structured: true, kind: 'ok', model: 'm', response: '{"outcome":"rate_limited"}\nwork done' });
  });

  it('ignores a last line that is JSON but not an outcome report', () => {
    expect(parseCommandOutput('{"files":3}')).toEqual({ structured: false, response: '{"files":3}' });
    expect(parseCommandOutput('{"outcome":"sunny"}').structured).toBe(false);
  });
});

describe('CappedOutput', () => {
  it('keeps everything under the cap and head plus tail over it', () => {
    const small = new CappedOutput(10);
    small.push(Buffer.from('abc'));
    expect(small.text()).toBe('abc');
    expect(small.truncated).toBe(false);

    const big = new CappedOutput(10);
    for (const chunk of ['012', '345', '678', '9ab', 'cde', 'fgh']) big.push(Buffer.from(chunk));
    expect(big.truncated).toBe(true);
    expect(big.totalBytes).toBe(18);
    expect(big.text()).toBe('01234\n… [8 bytes of output omitted] …\ndefgh');
  });
});
