import type { PreContextConfig } from '../../../config/index.js';
import { DEFAULT_PRE_CONTEXT_LIMITS, type PreContextSettings } from '../../../precontext/index.js';

/** Maps the resolved config (file + seed 000's env variables) to the builders' settings. */
export function toPreContextSettings(config: PreContextConfig): PreContextSettings {
  return {
    enabled: config.enabled,
    types: config.types,
    limits: {
      ...DEFAULT_PRE_CONTEXT_LIMITS,
      maxLines: config.maxLines,
      maxFiles: config.maxFiles,
      helperMaxAttempts: config.helperMaxAttempts,
    },
  };
}
