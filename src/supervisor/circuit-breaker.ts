import type { Breaker, BreakerWrite, Ledger, OutcomeKind } from '../ledger/index.js';
import type { Outcome } from '../providers/index.js';
import { DEFAULT_BREAKER_SETTINGS } from './defaults.js';
import { BREAKER_STATE_VALUE, breakerStateGauge } from './metrics.js';
import type { BreakerSettings } from './types.js';
import { checkBreakerOptions } from './run-plan-schema.js';

/** Outcomes that open the breaker at once (REFERENCE.md). */
const TRIPS_AT_ONCE: ReadonlySet<OutcomeKind> = new Set(['rate_limited', 'quota_exhausted', 'auth_failed']);
/**
 * Outcomes that count toward failureThreshold. A signal death counts like a crash: one OOM kill
 * or segfault may be bad luck, the same in a row means the provider's CLI is broken here.
 */
const COUNTS: ReadonlySet<OutcomeKind> = new Set(['overloaded', 'timeout', 'killed_by_signal']);
/** Outcomes that prove the provider answered: the agent ran, whatever it made of the task. */
const ANSWERED: ReadonlySet<OutcomeKind> = new Set(['ok', 'agent_error', 'validation_failed']);
/** Compare-and-set rounds before giving up on a contended breaker. */
const MAX_CAS_ROUNDS = 8;

export type BreakerDecision =
  | { allowed: true; /** This process holds the single half-open probe. */ probe: boolean }
  | { allowed: false; until?: number; reason?: string; /** Open on this host only (config_error). */ local: boolean };

export interface CircuitBreakerOptions {
  ledger: Ledger;
  /** Unique per process: the half-open probe is claimed in its name. */
  owner: string;
  settings?: Partial<BreakerSettings>;
  /** @default Date.now */
  now?: () => number;
}

/**
 * A circuit breaker per provider whose state lives in the ledger, so every supervisor sharing the
 * ledger sees it. Opens on rate_limited, quota_exhausted and auth_failed at once (until the
 * reported resetAt, else the kind's cool-down) and on overloaded/timeout/killed_by_signal after failureThreshold in
 * a row. Once open time has passed exactly one process wins the half-open probe through
 * compare-and-set on the breaker's generation (gobreaker v2's design); its lease lets another
 * process take over if the prober dies. Success closes it. validation_failed and context_window
 * never trip it; config_error opens it on this host only.
 */
export class CircuitBreaker {
  private readonly ledger: Ledger;
  private readonly owner: string;
  private readonly settings: BreakerSettings;
  private readonly now: () => number;
  private readonly local = new Map<string, { until: number; reason: string }>();

  constructor(options: CircuitBreakerOptions) {
    checkBreakerOptions(options);
    this.ledger = options.ledger;
    this.owner = options.owner;
    this.settings = { ...DEFAULT_BREAKER_SETTINGS, ...options.settings };
    this.now = options.now ?? Date.now;
  }

  /** May `provider` run now? Claims the half-open probe when the open time has passed. */
  async acquire(provider: string): Promise<BreakerDecision> {
    const local = this.local.get(provider);
    if (local && local.until > this.now()) return { allowed: false, until: local.until, reason: local.reason, local: true };
    for (let round = 0; round < MAX_CAS_ROUNDS; round++) {
      const breaker = await this.ledger.getBreaker(provider);
      const now = this.now();
      if (!breaker || breaker.state === 'closed') return { allowed: true, probe: false };
      if (breaker.state === 'half_open' && breaker.probeOwner === this.owner) return { allowed: true, probe: true };
      if ((breaker.until ?? 0) > now) {
        return { allowed: false, until: breaker.until, reason: breaker.reason, local: false };
      }
      // Open time over (or a probe lease lapsed): only one process's write lands.
      const claimed = await this.write(provider, breaker.generation, {
        state: 'half_open',
        until: now + this.settings.probeLeaseMs,
        failureCount: breaker.failureCount,
        reason: breaker.reason,
        probeOwner: this.owner,
      });
      if (claimed) return { allowed: true, probe: true };
    }
    return { allowed: false, reason: 'breaker contended', local: false };
  }

  /** Records a try's outcome; returns the breaker as written (undefined when unchanged). */
  async record(provider: string, outcome: Outcome): Promise<Breaker | undefined> {
    const kind = outcome.kind;
    if (kind === 'config_error') {
      this.local.set(provider, { until: this.now() + this.settings.coolDownMs, reason: outcome.reason ?? kind });
      return undefined;
    }
    for (let round = 0; round < MAX_CAS_ROUNDS; round++) {
      const current = await this.ledger.getBreaker(provider);
      const next = this.transition(current, outcome);
      if (next === undefined) return undefined;
      const written = await this.write(provider, current?.generation ?? 0, next);
      if (written) return written;
    }
    return undefined;
  }

  /** The next state after `outcome`, or undefined when the breaker does not change. */
  private transition(current: Breaker | undefined, outcome: Outcome): BreakerWrite | undefined {
    const now = this.now();
    const kind = outcome.kind;
    const failures = current?.failureCount ?? 0;
    const ownsProbe = current?.state === 'half_open' && current.probeOwner === this.owner;
    if (TRIPS_AT_ONCE.has(kind)) {
      const until = outcome.resetAt && outcome.resetAt > now ? outcome.resetAt : now + this.coolDown(kind);
      const keep = current?.state === 'open' && (current.until ?? 0) > until;
      return { state: 'open', until: keep ? current?.until : until, failureCount: failures + 1, reason: outcome.reason ?? kind };
    }
    if (COUNTS.has(kind)) {
      const count = failures + 1;
      if (count >= this.settings.failureThreshold || ownsProbe) {
        return { state: 'open', until: now + this.settings.coolDownMs, failureCount: count, reason: outcome.reason ?? kind };
      }
      if (current?.state === 'open' || current?.state === 'half_open') return undefined;
      return { state: 'closed', failureCount: count, reason: kind };
    }
    if (ANSWERED.has(kind)) {
      // A stale success must not close a breaker another process opened meanwhile.
      if (!current || current.state === 'open' || (current.state === 'half_open' && !ownsProbe)) return undefined;
      if (current.state === 'closed' && current.failureCount === 0) return undefined;
      return { state: 'closed', failureCount: 0 };
    }
    // context_window, interrupted: says nothing about availability; hand the probe back.
    if (ownsProbe) return { state: 'open', until: now, failureCount: failures, reason: current?.reason };
    return undefined;
  }

  private coolDown(kind: OutcomeKind): number {
    if (kind === 'quota_exhausted') return this.settings.quotaCoolDownMs;
    if (kind === 'auth_failed') return this.settings.authCoolDownMs;
    return this.settings.coolDownMs;
  }

  private async write(provider: string, generation: number, next: BreakerWrite): Promise<Breaker | undefined> {
    const written = await this.ledger.compareAndSetBreaker(provider, generation, next);
    if (written) breakerStateGauge().set({ provider }, BREAKER_STATE_VALUE[written.state]);
    return written;
  }
}
