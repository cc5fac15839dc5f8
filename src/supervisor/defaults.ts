import type { BreakerSettings } from './types.js';

export const DEFAULT_COOL_DOWN_MS = 60_000;
export const DEFAULT_QUOTA_COOL_DOWN_MS = 3_600_000;
export const DEFAULT_AUTH_COOL_DOWN_MS = 86_400_000;
export const DEFAULT_FAILURE_THRESHOLD = 3;
export const DEFAULT_PROBE_LEASE_MS = 15 * 60_000;
/** Seed 000: `retry_policy.max_retries || 3` attempts per task. */
export const DEFAULT_MAX_ATTEMPTS = 3;
/** How long the chain waits for the earliest breaker reset before failing the attempt. @default 0 */
export const DEFAULT_MAX_WAIT_MS = 0;
/** Task claim lease; renewed every third of it while the task runs. @default 30_000 */
export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_AGENT_TIMEOUT_MS = 15 * 60_000;
export const DEFAULT_CHECK_TIMEOUT_MS = 2 * 60_000;
/** The attempt's failure when every provider's breaker is open (seed 000's wording). */
export const ALL_PROVIDERS_OPEN = 'All providers circuit-broken';
/** Provider name recorded on a dispatch when no provider could run at all. */
export const NO_PROVIDER = 'none';

export const DEFAULT_BREAKER_SETTINGS: Readonly<BreakerSettings> = Object.freeze({
  coolDownMs: DEFAULT_COOL_DOWN_MS,
  quotaCoolDownMs: DEFAULT_QUOTA_COOL_DOWN_MS,
  authCoolDownMs: DEFAULT_AUTH_COOL_DOWN_MS,
  failureThreshold: DEFAULT_FAILURE_THRESHOLD,
  probeLeaseMs: DEFAULT_PROBE_LEASE_MS,
});
