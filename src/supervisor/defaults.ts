import {
  DEFAULT_AUTH_COOL_DOWN_MS,
  DEFAULT_COOL_DOWN_MS,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_PROBE_LEASE_MS,
  DEFAULT_QUOTA_COOL_DOWN_MS,
} from '../config/index.js';
import type { BreakerSettings } from './types.js';

/** Seed 000: `retry_policy.max_retries || 3` attempts per task. */
export const DEFAULT_MAX_ATTEMPTS = 3;
/** How long the chain waits for the earliest breaker reset before failing the attempt. @default 0 */
export const DEFAULT_MAX_WAIT_MS = 0;
/**
 * Task claim lease (BATON_LEASE_MS); renewed every third of it while the task runs, so a live run
 * keeps it through stalls of up to two thirds of it, and a dead run's task is taken over by
 * another run at most this long after the death. @default 10_000
 */
export const DEFAULT_TASK_LEASE_MS = 10_000;
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
