import { DEFAULT_RECENT_HISTORY_WINDOW } from '../config/index.js';
import { type AgentSessionRecord, isRecordCapable, type LedgerCore, type Task } from '../ledger/index.js';
import { parseInput, type SchemaFor } from '../util/index.js';
import { loadArgsSchema, type promptStateOptionsSchema } from './prompt-input-schema.js';
import { relevantSessions } from './relevant-sessions.js';
import { toMinimalState } from './to-minimal-state.js';
import type { MinimalState } from './types.js';

/** Blocked tasks listed at most. @default 20 */
export const DEFAULT_MAX_BLOCKERS = 20;
/** Token cap of one result summary in recent_history. @default 60 */
export const DEFAULT_RESULT_TOKENS = 60;

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

// The options schema tied to LoadPromptStateOptions: a key or type added to one alone fails the build.
export const PROMPT_STATE_OPTIONS_MATCH: SchemaFor<LoadPromptStateOptions, typeof promptStateOptionsSchema> = true;

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
