import type { OutcomeKind } from '../ledger/index.js';
import { ALL_PROVIDERS_OPEN } from './defaults.js';

/** Why one provider did not finish an attempt: a failed try, or a breaker that kept it out. */
export interface ProviderFailure {
  provider: string;
  kind: OutcomeKind | 'breaker_open';
  /** One line from the outcome or the breaker. */
  reason: string;
  /** When the provider's breaker is open: until when (after this try, or the one that skipped it). */
  openUntil?: number;
  /** The breaker is open on this host only (a local config_error). */
  local?: boolean;
}

/**
 * One attempt's failure, provider by provider. Only when every provider was kept out by an open
 * breaker does it say seed 000's "All providers circuit-broken"; a provider that ran and failed
 * says what happened to it (timed out, killed by a signal, binary missing...).
 */
export function describeAttemptFailure(failures: readonly ProviderFailure[]): string {
  if (failures.length === 0) return 'no provider is configured';
  const parts = failures.map(describeOne).join('; ');
  return allShared(failures) ? `${ALL_PROVIDERS_OPEN}: ${parts}` : parts;
}

/**
 * A task's block reason after attempts that failed before validation: per provider, what
 * happened how often (e.g. "timeout 2 times"), the last reason, and the breaker if it is open.
 */
export function describeTaskFailure(attempts: readonly (readonly ProviderFailure[])[]): string {
  const byProvider = new Map<string, { counts: Map<string, number>; last: ProviderFailure }>();
  for (const failures of attempts) {
    for (const failure of failures) {
      const entry = byProvider.get(failure.provider) ?? { counts: new Map<string, number>(), last: failure };
      entry.counts.set(failure.kind, (entry.counts.get(failure.kind) ?? 0) + 1);
      entry.last = failure;
      byProvider.set(failure.provider, entry);
    }
  }
  const allOpen = allShared(attempts.at(-1) ?? []);
  const parts = [...byProvider.values()].map(({ counts, last }) => {
    const tally = [...counts].map(([kind, n]) => (n > 1 ? `${kind} ${n} times` : kind)).join(', ');
    return `${last.provider}: ${tally}; last: ${reasonOf(last)}`;
  });
  return `${allOpen ? `${ALL_PROVIDERS_OPEN}: ` : ''}${parts.join(' | ')}`;
}

/**
 * Every provider kept out by a shared open breaker. A breaker open on this host only stands for a
 * local config_error (a missing binary): calling that "circuit-broken" would hide the cause.
 */
function allShared(failures: readonly ProviderFailure[]): boolean {
  return failures.length > 0 && failures.every((f) => f.kind === 'breaker_open' && !f.local);
}

function describeOne(failure: ProviderFailure): string {
  return `${failure.provider}: ${failure.kind === 'breaker_open' ? '' : `${failure.kind}, `}${reasonOf(failure)}`;
}

function reasonOf(failure: ProviderFailure): string {
  const until = failure.openUntil === undefined ? '' : ` until ${new Date(failure.openUntil).toISOString()}`;
  const open = failure.local ? `skipped on this host${until}` : until ? `breaker open${until}` : '';
  if (failure.kind === 'breaker_open') return `${open || 'breaker open'} (${failure.reason})`;
  return open ? `${failure.reason} (${open})` : failure.reason;
}
