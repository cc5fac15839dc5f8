import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { CircuitBreaker } from '../../src/supervisor/index.js';

function rig(settings = {}) {
  let clock = 1_700_000_000_000;
  const now = () => clock;
  const ledger = new MemoryLedger(now);
  const make = (owner: string) =>
    new CircuitBreaker({ ledger, owner, now, settings: { coolDownMs: 1000, probeLeaseMs: 5000, failureThreshold: 3, ...settings } });
  return { ledger, make, advance: (ms: number) => (clock += ms), now };
}

describe('CircuitBreaker', () => {
  it('opens at once on a rate limit until the reported resetAt, shared through the ledger', async () => {
    const { make, advance, now } = rig();
    const a = make('a');
    const b = make('b');
    await a.record('gemini', { kind: 'rate_limited', resetAt: now() + 10_000 });
    expect(await b.acquire('gemini')).toEqual({ allowed: false, until: now() + 10_000, reason: 'rate_limited', local: false });
    advance(9_999);
    expect((await b.acquire('gemini')).allowed).toBe(false);
    advance(1);
    expect(await b.acquire('gemini')).toEqual({ allowed: true, probe: true });
  });

  it('uses the kind cool-down without a resetAt (quota and auth longer than rate limits)', async () => {
    const { make, ledger, now } = rig({ quotaCoolDownMs: 50_000, authCoolDownMs: 90_000 });
    const a = make('a');
    await a.record('p1', { kind: 'rate_limited' });
    await a.record('p2', { kind: 'quota_exhausted' });
    await a.record('p3', { kind: 'auth_failed' });
    expect((await ledger.getBreaker('p1'))?.until).toBe(now() + 1000);
    expect((await ledger.getBreaker('p2'))?.until).toBe(now() + 50_000);
    expect((await ledger.getBreaker('p3'))?.until).toBe(now() + 90_000);
  });

  it('opens on overloaded/timeout only after failureThreshold in a row; success resets the count', async () => {
    const { make, ledger } = rig();
    const a = make('a');
    await a.record('p', { kind: 'overloaded' });
    await a.record('p', { kind: 'timeout' });
    expect((await ledger.getBreaker('p'))?.state).toBe('closed');
    await a.record('p', { kind: 'ok' });
    await a.record('p', { kind: 'timeout' });
    await a.record('p', { kind: 'timeout' });
    expect((await ledger.getBreaker('p'))?.state).toBe('closed');
    await a.record('p', { kind: 'overloaded' });
    expect((await ledger.getBreaker('p'))?.state).toBe('open');
  });

  it('never trips on validation_failed or context_window, and keeps config_error local to this process', async () => {
    const { make, ledger } = rig();
    const a = make('a');
    for (let i = 0; i < 5; i++) {
      await a.record('p', { kind: 'validation_failed' });
      await a.record('p', { kind: 'context_window' });
    }
    expect(await ledger.getBreaker('p')).toBeUndefined();
    await a.record('p', { kind: 'config_error', reason: 'binary missing' });
    expect(await a.acquire('p')).toMatchObject({ allowed: false, local: true, reason: 'binary missing' });
    expect(await make('b').acquire('p')).toEqual({ allowed: true, probe: false });
    expect(await ledger.getBreaker('p')).toBeUndefined();
  });

  it('lets exactly one of many processes probe when half-open, and closes on its success', async () => {
    const { make, advance, ledger } = rig();
    await make('x').record('p', { kind: 'rate_limited' });
    advance(1000);
    const owners = ['a', 'b', 'c', 'd', 'e'].map(make);
    const decisions = await Promise.all(owners.map((o) => o.acquire('p')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(1);
    const winner = owners[decisions.findIndex((d) => d.allowed)] as CircuitBreaker;
    expect((await ledger.getBreaker('p'))?.state).toBe('half_open');
    await winner.record('p', { kind: 'ok' });
    expect(await ledger.getBreaker('p')).toMatchObject({ state: 'closed', failureCount: 0 });
    expect(await owners[0]?.acquire('p')).toEqual({ allowed: true, probe: false });
  });

  it('reopens when the probe fails and hands the probe over when its lease lapses', async () => {
    const { make, advance, ledger } = rig();
    const a = make('a');
    const b = make('b');
    await a.record('p', { kind: 'rate_limited' });
    advance(1000);
    expect((await a.acquire('p')).allowed).toBe(true);
    await a.record('p', { kind: 'timeout' });
    expect((await ledger.getBreaker('p'))?.state).toBe('open');
    advance(1000);
    expect((await a.acquire('p')).allowed).toBe(true);
    expect((await b.acquire('p')).allowed).toBe(false);
    advance(5000);
    // a's probe lease lapsed (a crashed): b takes the probe over.
    expect(await b.acquire('p')).toEqual({ allowed: true, probe: true });
    expect((await ledger.getBreaker('p'))?.probeOwner).toBe('b');
  });

  it('does not let a stale success close a breaker another process opened', async () => {
    const { make, ledger } = rig();
    await make('a').record('p', { kind: 'quota_exhausted' });
    await make('b').record('p', { kind: 'ok' });
    expect((await ledger.getBreaker('p'))?.state).toBe('open');
  });
});

describe('CircuitBreaker options', () => {
  it('names an unknown option with the spelling expected, and a missing owner', () => {
    const ledger = new MemoryLedger();
    expect(() => new CircuitBreaker({ ledger, owner: 'me', settings: { cooldownMs: 5 } } as never)).toThrow(
      'CircuitBreaker options: settings: unknown key "cooldownMs" (did you mean "coolDownMs"?)',
    );
    expect(() => new CircuitBreaker({ ledger } as never)).toThrow(
      'CircuitBreaker options: owner: Invalid input: expected string, received undefined',
    );
  });
});
