export {
  DEFAULT_AGENT_TIMEOUT_MS,
  DEFAULT_AUTH_COOL_DOWN_MS,
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_CONFIG_PATH,
  DEFAULT_COOL_DOWN_MS,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_PRIORITY,
  DEFAULT_PROBE_LEASE_MS,
  DEFAULT_QUOTA_COOL_DOWN_MS,
  DEFAULT_RECENT_HISTORY_WINDOW,
} from './defaults.js';
export { loadConfig } from './load-config.js';

export type { LoadConfigOptions } from './load-config.js';
export type { BatonConfig, BreakerConfig, PreContextConfig, PreContextType, TimeoutsConfig } from './types.js';
