import { DEFAULT_RECENT_HISTORY_WINDOW } from '../config/index.js';
import { type AgentSessionRecord, isRecordCapable, type LedgerCore, type Task } from '../ledger/index.js';
import { parseInput } from '../util/index.js';
import { loadArgsSchema } from './prompt-input-schema.js';
import { relevantSessions } from './relevant-sessions.js';
import { DEFAULT_RESULT_TOKENS, toMinimalState } from './to-minimal-state.js';
import type { MinimalState } from './types.js';

// Seed 001's window (the last 3-5 completed tasks), shared with baton.config.json's default.
export { DEFAULT_RECENT_HISTORY_WINDOW };
/** Blocked tasks listed at most. @default 20 */
export const DEFAULT_MAX_BLOCKERS = 20;

export interface LoadPromptStateOptions {
  /** How many completed tasks recent_history shows. @default DEFAULT_RECENT_HISTORY_WINDOW */
  window?: number;
  /** Blocked tasks listed at most. @default DEFAULT_MAX_BLOCKERS */
  maxBlockers?: number;
  /** Token cap of each result summary. @default DEFAULT_RESULT_TOKENS */
  resultTokens?: number;
  /** Agent CLI sessions shown (hook-recorded or imported; `baton run`'s own tries never). @default DEFAULT_RECENT_SESSIONS */
  sessions?: number;
  /** Only this workspace's sessions (a shared Redis ledger holds other projects' too). @default every workspace */
  workspace?: string;
}

/** @default 3: the latest agent CLI sessions a task prompt shows. */
export const DEFAULT_RECENT_SESSIONS = 3;

/**
 * Derives the prompt's READ-ONLY CONTEXT from the ledger: recentCompletedTasks(window), the
 * blocked tasks and the latest agent CLI sessions (the newest with facts: a usage-limit cut, a
 * failed command and its line, files, open plan). Three reads; no keyword trigger (seed 001
 * removed it).
 * @throws BatonError CONFIG_INVALID for an unknown option (naming the spelling expected) or a value of the wrong type.
 */
export async function loadPromptState(ledger: LedgerCore, options: LoadPromptStateOptions = {}): Promise<MinimalState> {
  parseInput(loadArgsSchema, { ledger, options }, { what: 'loadPromptState' });
  const window = options.window ?? DEFAULT_RECENT_HISTORY_WINDOW;
  const sessionLimit = options.sessions ?? DEFAULT_RECENT_SESSIONS;
  const [completed, blocked, sessions] = await Promise.all([
    window > 0 ? ledger.recentCompletedTasks(window) : Promise.resolve([] as Task[]),
    ledger.listTasks({ status: 'blocked', limit: options.maxBlockers ?? DEFAULT_MAX_BLOCKERS }),
    sessionLimit > 0 && isRecordCapable(ledger)
      ? relevantSessions(ledger, { limit: sessionLimit, workspace: options.workspace })
      : Promise.resolve([] as AgentSessionRecord[]),
  ]);
  return toMinimalState(completed, blocked.items, { resultTokens: options.resultTokens ?? DEFAULT_RESULT_TOKENS, sessions });
}
