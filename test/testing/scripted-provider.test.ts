import { describe, expect, it } from 'vitest';
import { fixedClock, MemoryLedger, ScriptedProvider } from '../../src/testing/index.js';

const request = { prompt: 'do it', cwd: '/tmp', timeoutMs: 1000 };

describe('ScriptedProvider', () => {
  it('answers its steps in order, repeats the last one, and records every request', async () => {
    const provider = new ScriptedProvider('flaky', ['rate_limited', { outcome: { kind: 'ok' }, response: 'done', model: 'm-1' }]);
    const first = await provider.run(request);
    const second = await provider.run({ ...request, prompt: 'again' });
    const third = await provider.run(request);
    expect(first.outcome.kind).toBe('rate_limited');
    expect(first.exitCode).toBe(1);
    expect(second).toMatchObject({ outcome: { kind: 'ok' }, response: 'done', model: 'm-1', exitCode: 0 });
    expect(third.outcome.kind).toBe('ok');
    expect(provider.requests.map((r) => r.prompt)).toEqual(['do it', 'again', 'do it']);
  });

  it('lets a step compute its result from the request', async () => {
    const echo = new ScriptedProvider('echo', [
      (r) => ({ outcome: { kind: 'ok' }, output: r.prompt, outputTruncated: false, durationMs: 1 }),
    ]);
    expect((await echo.run(request)).output).toBe('do it');
  });

  it('refuses an empty script', () => {
    expect(() => new ScriptedProvider('none', [])).toThrow(/at least one step/);
  });
});

describe('fixedClock', () => {
  it('drives a memory ledger deterministically, including lease expiry', async () => {
    const clock = fixedClock(1_000);
    const ledger = new MemoryLedger(clock.now);
    const task = await ledger.createTask({ id: 't', title: 'T' });
    expect(task.createdAt).toBe(1_000);
    expect((await ledger.claimTask('t', 'a', 100)).ok).toBe(true);
    expect((await ledger.claimTask('t', 'b', 100)).ok).toBe(false);
    clock.advance(101);
    expect((await ledger.claimTask('t', 'b', 100)).ok).toBe(true);
  });
});
