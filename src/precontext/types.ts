import type { PreContextType } from '../config/index.js';
import type { Logger } from '../observability/index.js';

/** The three seams where seed 000 injects pre-context (one type with the config's). */
export type { PreContextType };

/** One line of a pre-context block, with how it may give way to the limits. */
export interface ContextLine {
  text: string;
  /** Fixed lines (delimiters, headings, instructions) are never dropped or cut. */
  fixed?: boolean;
  /** Higher survives longer when lines or tokens run out. */
  priority: number;
  /** The line ends with a quoted value that is re-closed when the line is cut. */
  quoted?: boolean;
  /** The line ends with a comma-separated list (file paths) that is cut only between items. */
  list?: boolean;
}

/** Size limits of every pre-context block (seed 000's configuration variables). */
export interface PreContextLimits {
  /** Hard limit on the block's lines, delimiters included (PRE_CONTEXT_MAX_LINES). @default 10 */
  maxLines: number;
  /** Hard limit on the block's tokens (o200k_base). @default 100 */
  maxTokens: number;
  /** Files listed per list (PRE_CONTEXT_MAX_FILES). @default 3 */
  maxFiles: number;
  /** Validation errors listed in the retry context. @default 3 */
  maxErrors: number;
  /** Attempts listed in the helper context (HELPER_CONTEXT_MAX_ATTEMPTS). @default 2 */
  helperMaxAttempts: number;
}

/** Options every builder takes. Builders never read the clock, the environment or the disk. */
export interface PreContextBuildOptions {
  /** Overrides of DEFAULT_PRE_CONTEXT_LIMITS. */
  limits?: Partial<PreContextLimits>;
  /** Where the warning about a missing or corrupt record goes. @default getLogger() */
  logger?: Pick<Logger, 'warn'>;
}

/** Seed 000's switches, resolved from env, config and (per task) options.enable_pre_context. */
export interface PreContextSettings {
  /** ENABLE_PRE_CONTEXT_INJECTION. @default true */
  enabled: boolean;
  /** PRE_CONTEXT_TYPES. @default all three */
  types: readonly PreContextType[];
  limits: PreContextLimits;
}
