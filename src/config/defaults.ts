import type { AgentCliType } from '../providers/index.js';
import type { PreContextType } from './types.js';

/** Where `baton init` writes the config, relative to the workspace. */
export const DEFAULT_CONFIG_PATH = '.baton/baton.config.json';
/** Seed 000's default provider priority. */
export const DEFAULT_PRIORITY: readonly AgentCliType[] = ['gemini', 'copilot', 'cursor', 'codex', 'claude'];
export const DEFAULT_PRE_CONTEXT_ENABLED = true;
export const DEFAULT_PRE_CONTEXT_MAX_LINES = 10;
export const DEFAULT_PRE_CONTEXT_TYPES: readonly PreContextType[] = ['circuit_breaker', 'retry', 'helper'];
export const DEFAULT_PRE_CONTEXT_MAX_FILES = 3;
export const DEFAULT_HELPER_MAX_ATTEMPTS = 2;
/** Seed 001: recent_history shows the last 3-5 completed tasks. */
export const DEFAULT_RECENT_HISTORY_WINDOW = 5;
export const DEFAULT_COOL_DOWN_MS = 60_000;
export const DEFAULT_QUOTA_COOL_DOWN_MS = 3_600_000;
export const DEFAULT_AUTH_COOL_DOWN_MS = 86_400_000;
export const DEFAULT_FAILURE_THRESHOLD = 3;
export const DEFAULT_PROBE_LEASE_MS = 15 * 60_000;
export const DEFAULT_AGENT_TIMEOUT_MS = 15 * 60_000;
export const DEFAULT_CHECK_TIMEOUT_MS = 2 * 60_000;
/** Files a task commits larger than this violate the commit policy (10 MiB). */
export const DEFAULT_COMMIT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_COMMIT_ON_VIOLATION: 'refuse' | 'flag' = 'refuse';
