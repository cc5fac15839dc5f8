import type { BatonConfig } from '../../../config/index.js';
import { DEFAULT_PRE_CONTEXT_LIMITS } from '../../../precontext/index.js';
import { DEFAULT_TASK_LEASE_MS } from '../../../supervisor/index.js';

/**
 * What the resolved config (file + seed 000's env variables) and BATON_LEASE_MS set for every task
 * `baton run` and `baton worker` run.
 */
export function configRunOptions(config: BatonConfig, env: NodeJS.ProcessEnv) {
  const { preContext } = config;
  const leaseMs = Number(env.BATON_LEASE_MS);
  return {
    preContext: {
      enabled: preContext.enabled,
      types: preContext.types,
      limits: {
        ...DEFAULT_PRE_CONTEXT_LIMITS,
        maxLines: preContext.maxLines,
        maxFiles: preContext.maxFiles,
        helperMaxAttempts: preContext.helperMaxAttempts,
      },
    },
    breaker: config.breaker,
    recentHistoryWindow: config.recentHistoryWindow,
    agentTimeoutMs: config.timeouts.agentMs,
    checkTimeoutMs: config.timeouts.checkMs,
    leaseMs: leaseMs > 0 ? leaseMs : DEFAULT_TASK_LEASE_MS,
  };
}
