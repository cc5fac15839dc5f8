import type { PreContextLimits, PreContextSettings, PreContextType } from './types.js';

/** Seed 000: a pre-context block never exceeds 10 lines. */
export const PRE_CONTEXT_MAX_LINES = 10;
/** Seed 000: under 100 tokens per injection. */
export const PRE_CONTEXT_MAX_TOKENS = 100;
/** Seed 000: at most 3 files per list. */
export const PRE_CONTEXT_MAX_FILES = 3;
/** Seed 000: at most 3 validation errors in the retry context. */
export const PRE_CONTEXT_MAX_ERRORS = 3;
/** Seed 000: the helper context shows the last 2 attempts. */
export const HELPER_CONTEXT_MAX_ATTEMPTS = 2;
/** Seed 000: three attempts sharing their first validation error mean a loop. */
export const TASK_LOOP_ATTEMPTS = 3;
/** Dispatches with this mode are helper (verifier) runs, not attempts at the task. */
export const HELPER_MODE = 'helper';
/** Closes every block. */
export const END_LINE = '--- END CONTEXT ---';
/** Ends a block whose fixed lines alone exceed maxLines. */
export const TRUNCATED_LINE = '--- CONTEXT TRUNCATED ---';
export const PRE_CONTEXT_TYPES: readonly PreContextType[] = ['circuit_breaker', 'retry', 'helper'];

export const DEFAULT_PRE_CONTEXT_LIMITS: Readonly<PreContextLimits> = Object.freeze({
  maxLines: PRE_CONTEXT_MAX_LINES,
  maxTokens: PRE_CONTEXT_MAX_TOKENS,
  maxFiles: PRE_CONTEXT_MAX_FILES,
  maxErrors: PRE_CONTEXT_MAX_ERRORS,
  helperMaxAttempts: HELPER_CONTEXT_MAX_ATTEMPTS,
});

export const DEFAULT_PRE_CONTEXT_SETTINGS: Readonly<PreContextSettings> = Object.freeze({
  enabled: true,
  types: PRE_CONTEXT_TYPES,
  limits: DEFAULT_PRE_CONTEXT_LIMITS,
});

/** Fills missing limits with the defaults; clamps nonsense (a block needs at least 3 lines). */
export function resolvePreContextLimits(limits: Partial<PreContextLimits> | undefined): PreContextLimits {
  if (!limits) return DEFAULT_PRE_CONTEXT_LIMITS;
  const pick = (value: number | undefined, fallback: number, min: number) =>
    value !== undefined && Number.isFinite(value) ? Math.max(min, Math.floor(value)) : fallback;
  return {
    maxLines: pick(limits.maxLines, PRE_CONTEXT_MAX_LINES, 3),
    maxTokens: pick(limits.maxTokens, PRE_CONTEXT_MAX_TOKENS, 20),
    maxFiles: pick(limits.maxFiles, PRE_CONTEXT_MAX_FILES, 0),
    maxErrors: pick(limits.maxErrors, PRE_CONTEXT_MAX_ERRORS, 1),
    helperMaxAttempts: pick(limits.helperMaxAttempts, HELPER_CONTEXT_MAX_ATTEMPTS, 1),
  };
}
