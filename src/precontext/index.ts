export { buildHelperContext, detectTaskLoop } from './build-helper-context.js';
export { buildMergeConflictContext } from './build-merge-conflict-context.js';
export { buildProviderSwitchContext } from './build-provider-switch-context.js';
export { buildRetryContext } from './build-retry-context.js';
export {
  DEFAULT_PRE_CONTEXT_LIMITS,
  HELPER_CONTEXT_MAX_ATTEMPTS,
  HELPER_MODE,
  PRE_CONTEXT_MAX_FILES,
  PRE_CONTEXT_MAX_LINES,
  PRE_CONTEXT_TYPES,
} from './defaults.js';
export { isPreContextEnabled, resolvePreContextSettings } from './resolve-settings.js';

export type { HelperContextInput } from './build-helper-context.js';
export type { ConflictAuthor } from './build-merge-conflict-context.js';
export type { ProviderSwitchContextInput } from './build-provider-switch-context.js';
export type { RetryContextInput } from './build-retry-context.js';
export type { PreContextInput } from './resolve-settings.js';
export type { PreContextLimits, PreContextSettings, PreContextType } from './types.js';
