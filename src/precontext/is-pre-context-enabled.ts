import type { PreContextSettings, PreContextType } from './types.js';

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
