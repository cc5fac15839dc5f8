import type { ProviderConfig } from '../providers/index.js';

/** The three seams where seed 000 injects pre-context. */
export type PreContextType = 'circuit_breaker' | 'retry' | 'helper';

/** Seed 000's pre-context settings, after env overrides. */
export interface PreContextConfig {
  enabled: boolean;
  maxLines: number;
  types: PreContextType[];
  maxFiles: number;
  helperMaxAttempts: number;
}

/** Circuit-breaker timings and thresholds (REFERENCE.md's outcome table); the supervisor's BreakerSettings. */
export interface BreakerConfig {
  /** Cool-down (open time) after a rate limit without a reset time. @default 60_000 */
  coolDownMs: number;
  /** Cool-down after quota exhaustion without a reset time. @default 3_600_000 */
  quotaCoolDownMs: number;
  /** Cool-down after an auth failure (an operator usually has to act). @default 86_400_000 */
  authCoolDownMs: number;
  /** Consecutive overloaded/timeout outcomes that open the breaker. @default 3 */
  failureThreshold: number;
  /** How long a half-open probe holds its lease before another process may probe. @default 900_000 */
  probeLeaseMs: number;
}

export interface TimeoutsConfig {
  /** Baton's wall-clock limit for one agent run, above the CLI's own retries. */
  agentMs: number;
  /** Limit for one acceptance-criterion check command. */
  checkMs: number;
}

/**
 * What a task may commit to the run's branch (`--concurrency`, workers): a symlink pointing outside
 * the repository, or a file over `maxFileBytes`, is a violation.
 */
export interface CommitPolicyConfig {
  maxFileBytes: number;
  /** 'refuse': the attempt fails, naming them; 'flag': committed, and named in the attempt's result and the run report. */
  onViolation: 'refuse' | 'flag';
}

/** Baton's resolved configuration: every default applied, every path absolute. */
export interface BatonConfig {
  /** The config file read, when one was. */
  file?: string;
  /** Ledger spec (sqlite:PATH, redis://..., memory) when the file names one. */
  ledger?: string;
  /** Declared providers plus built-in defaults for undeclared names used in priority or helper. */
  providers: Record<string, ProviderConfig>;
  priority: string[];
  preContext: PreContextConfig;
  recentHistoryWindow: number;
  breaker: BreakerConfig;
  timeouts: TimeoutsConfig;
  commitPolicy: CommitPolicyConfig;
  /** Provider name for the helper (verifier) agent. */
  helper?: string;
}

/** A field of baton.config.json: a settings group field by field (each optional), a list or map as it is. */
type ConfigFileField<V> = V extends readonly unknown[] | Record<string, ProviderConfig> ? V : V extends object ? Partial<V> : V;

/**
 * baton.config.json as written (after "//" comment keys are removed): BatonConfig's own fields,
 * each optional (defaults fill in). config-schema-match.ts ties the file's schema to it, so a
 * setting added to BatonConfig fails the build until the file's schema takes it.
 */
export type ConfigFileFormat = { [K in Exclude<keyof BatonConfig, 'file'>]?: ConfigFileField<BatonConfig[K]> };
