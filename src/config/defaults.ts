import type { AgentCliType } from '../providers/index.js';
import type { CommitPolicyConfig, PreContextConfig } from './types.js';

/** Where `baton init` writes the config, relative to the workspace. */
export const DEFAULT_CONFIG_PATH = '.baton/baton.config.json';
/** Seed 000's default provider priority. */
export const DEFAULT_PRIORITY: readonly AgentCliType[] = ['gemini', 'copilot', 'cursor', 'codex', 'claude'];
export const DEFAULT_PRE_CONTEXT: Readonly<PreContextConfig> = {
  enabled: true,
  maxLines: 10,
  types: ['circuit_breaker', 'retry', 'helper'],
  maxFiles: 3,
  helperMaxAttempts: 2,
};
/** Seed 001: recent_history shows the last 3-5 completed tasks. */
export const DEFAULT_RECENT_HISTORY_WINDOW = 5;
export const DEFAULT_COOL_DOWN_MS = 60_000;
export const DEFAULT_QUOTA_COOL_DOWN_MS = 3_600_000;
export const DEFAULT_AUTH_COOL_DOWN_MS = 86_400_000;
export const DEFAULT_FAILURE_THRESHOLD = 3;
export const DEFAULT_PROBE_LEASE_MS = 15 * 60_000;
export const DEFAULT_AGENT_TIMEOUT_MS = 15 * 60_000;
export const DEFAULT_CHECK_TIMEOUT_MS = 2 * 60_000;
/** Files a task commits larger than 10 MiB violate the commit policy. */
export const DEFAULT_COMMIT_POLICY: Readonly<CommitPolicyConfig> = { maxFileBytes: 10 * 1024 * 1024, onViolation: 'refuse' };
