import type { AcceptanceCriterion, Task } from '../ledger/index.js';

/** One completed task in seed 001's sliding window. */
export interface RecentHistoryEntry {
  task_id: string;
  /** ISO 8601. */
  completed_at: string;
  intent?: string;
  result?: string;
}

/** A blocked task the agent must not redo or depend on. */
export interface ActiveBlocker {
  task_id: string;
  reason: string;
}

/**
 * The READ-ONLY CONTEXT of every task prompt (seed 001): always present, even when empty, so the
 * agent can tell "nothing happened yet" from "context missing".
 */
export interface MinimalState {
  recent_history: RecentHistoryEntry[];
  active_blockers: ActiveBlocker[];
  /**
   * What the latest sessions of agent CLIs (Claude Code, Gemini CLI, Codex, Copilot CLI: recorded
   * by `baton hooks` or imported from their own stores) did, newest first, `baton run`'s own tries
   * left out; present only when there are some.
   */
  recent_sessions?: RecentSessionEntry[];
}

/** One interactive agent CLI session, as its hooks recorded it or an import read it. */
export interface RecentSessionEntry {
  session_id: string;
  /** ISO 8601: its last activity. */
  last_active: string;
  status: string;
  /** The deterministic summary: turns, files created and changed, failed commands. */
  summary: string;
  last_request?: string;
  /** Only on the newest session that has them: what a next agent most needs from it. */
  facts?: RecentSessionFacts;
}

/** A session's facts beyond its summary (cut, masked). */
export interface RecentSessionFacts {
  /** E.g. "the last turn was cut off by a usage limit". */
  cut_off?: string;
  /** The newest failed command, its exit code and its telling line. */
  failed_command?: { command: string; exit_code?: number; error?: string };
  files_changed?: string[];
  /** Open items of the session's newest plan. */
  open_plan?: string[];
}

/** What the task prompt needs to know about the task (a ledger Task satisfies it). */
export type PromptTask = Pick<Task, 'id' | 'instructions' | 'intent'> &
  Partial<Pick<Task, 'title'>> & { acceptanceCriteria: readonly AcceptanceCriterion[] };
