/**
 * One event of a session as the fact extractor reads it: structurally the session shape of
 * src/sessions (`SessionEvent`), so a session read by `readSessionFile` is passed as it is; loop
 * events convert to it with `factEventsOfLoop`.
 */
export type FactEvent =
  | { type: 'user'; text: string }
  | { type: 'assistant'; text: string }
  | { type: 'tool'; call: FactToolCall }
  | { type: 'compaction'; summary: string };

/** A tool call with its result, as far as the facts need it. */
export interface FactToolCall {
  name: string;
  args: unknown;
  output?: string;
  /** The client said it failed (is_error, status error, a non-zero exit code). */
  failed: boolean;
  exitCode?: number;
  /** The file open in the agent's editor after the call (SWE-agent `edit` edits it). */
  openFile?: string;
}

/**
 * What a context should still hold at one step of a session (issue 36's facts): the task, the
 * files edited, the newest error line, the last three actions, the open plan items and the newest
 * request. Each text is whitespace-normalized; an absent fact is undefined (or empty) and is not
 * scored.
 */
export interface SessionFacts {
  /** The first request's head (for SWE-agent, the issue text's head). */
  task?: string;
  /** Paths of the calls that edited or wrote a file and did not fail. */
  filesEdited: string[];
  /** The telling line (pickFailureLine) of the newest failed call. */
  newestError?: string;
  /** For each of the last three calls: its key argument and the first and last line of its result. */
  lastActions: string[];
  /** The open items of the newest plan. */
  openPlan: string[];
  /** The newest user request's head. */
  newestRequest?: string;
}

/** One of the facts' names, in report order. */
export type FactName = 'task' | 'files_edited' | 'newest_error' | 'last_actions' | 'open_plan' | 'newest_request';

/** The facts' names in report order. */
export const FACT_NAMES: readonly FactName[] = ['task', 'files_edited', 'newest_error', 'last_actions', 'open_plan', 'newest_request'];
