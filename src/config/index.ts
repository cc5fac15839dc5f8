export {
  DEFAULT_AGENT_TIMEOUT_MS,
  DEFAULT_AUTH_COOL_DOWN_MS,
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_COMMIT_MAX_FILE_BYTES,
  DEFAULT_COMMIT_ON_VIOLATION,
  DEFAULT_CONFIG_PATH,
  DEFAULT_COOL_DOWN_MS,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_HELPER_MAX_ATTEMPTS,
  DEFAULT_PRE_CONTEXT_ENABLED,
  DEFAULT_PRE_CONTEXT_MAX_FILES,
  DEFAULT_PRE_CONTEXT_MAX_LINES,
  DEFAULT_PRE_CONTEXT_TYPES,
  DEFAULT_PRIORITY,
  DEFAULT_PROBE_LEASE_MS,
  DEFAULT_QUOTA_COOL_DOWN_MS,
  DEFAULT_RECENT_HISTORY_WINDOW,
} from './defaults.js';
export { loadConfig } from './load-config.js';
export { applyPreContextEnv } from './pre-context-env.js';
export type { LoadConfigOptions } from './load-config.js';
export type { BatonConfig, BreakerConfig, CommitPolicyConfig, PreContextConfig, PreContextType, TimeoutsConfig } from './types.js';
