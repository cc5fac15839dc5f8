import { definedFields } from '../util/index.js';
import { DEFAULT_PRE_CONTEXT_SETTINGS, resolvePreContextLimits } from './defaults.js';
import type { PreContextLimits, PreContextSettings, PreContextType } from './types.js';

/**
 * Pre-context switches as a caller gives them: the builders' own shape (`PreContextSettings`,
 * limits nested) or the config file's flat one (`BatonConfig['preContext']`: maxLines, maxFiles,
 * helperMaxAttempts beside enabled and types), each part optional. A flat limit wins over the same
 * limit in `limits`.
 */
export interface PreContextInput {
  /** @default true */
  enabled?: boolean;
  /** @default all three */
  types?: readonly PreContextType[];
  limits?: Partial<PreContextLimits>;
  maxLines?: number;
  maxFiles?: number;
  helperMaxAttempts?: number;
}

/** The settings the builders use, from either shape, every missing part a default. Pure. */
export function resolvePreContextSettings(input: PreContextInput | undefined): PreContextSettings {
  if (!input) return DEFAULT_PRE_CONTEXT_SETTINGS;
  const { maxLines, maxFiles, helperMaxAttempts } = input;
  const flat = definedFields({ maxLines, maxFiles, helperMaxAttempts });
  return {
    enabled: input.enabled ?? DEFAULT_PRE_CONTEXT_SETTINGS.enabled,
    types: input.types ?? DEFAULT_PRE_CONTEXT_SETTINGS.types,
    limits: resolvePreContextLimits({ ...input.limits, ...flat }),
  };
}

/**
 * Whether to inject a block of `type`: a task's `options.enable_pre_context` (a boolean)
 * overrides the global ENABLE_PRE_CONTEXT_INJECTION switch; PRE_CONTEXT_TYPES still filters.
 */
export function isPreContextEnabled(
  settings: Pick<PreContextSettings, 'enabled' | 'types'>,
  type: PreContextType,
  taskOptions?: Readonly<Record<string, unknown>>,
): boolean {
  const override = taskOptions?.enable_pre_context;
  const enabled = typeof override === 'boolean' ? override : settings.enabled;
  return enabled && settings.types.includes(type);
}
