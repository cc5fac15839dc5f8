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
}

/** What the task prompt needs to know about the task (a ledger Task satisfies it). */
export interface PromptTask {
  id: string;
  title?: string;
  instructions: string;
  intent: string;
  acceptanceCriteria: readonly { description: string; check?: string }[];
}
