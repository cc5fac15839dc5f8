import type { PlanItem, PlanMode, ToolKind } from '../vocabulary/index.js';

/*
 * The one session shape every agent CLI's own record is read into (the contract shared with the
 * loop's context benchmark): src/sessions/ reads Claude Code, Codex CLI, Gemini CLI, Copilot CLI and OpenCode
 * records into it; discovery, import, `baton sessions` and `baton handoff` work only on it.
 */

export type { PlanItem, ToolKind };

/** Which agent CLI wrote a session record. */
export type SessionClient = 'claude' | 'codex' | 'gemini' | 'copilot' | 'cursor' | 'opencode';

/** How a session ended, as far as its record tells. */
export type SessionEnding = 'normal' | 'error' | 'usage_limit' | 'interrupted' | 'unknown';

/** One tool call with its result, as the client recorded them (texts redacted). */
export interface SessionToolCall {
  id?: string;
  name: string;
  /** The arguments as the client recorded them (redacted). */
  args: unknown;
  /** From the vocabulary table (src/vocabulary/ describeToolCall). */
  kind: ToolKind;
  key?: string;
  paths: string[];
  command?: string;
  plan?: PlanItem[];
  /** How `plan` applies to the plan so far (the vocabulary's applyPlan). */
  planMode?: PlanMode;
  /** The result's text (redacted), whole up to a per-result bound (head and tail kept); `outputTruncated` when cut. */
  output?: string;
  outputTruncated?: boolean;
  failed: boolean;
  exitCode?: number;
  /** pickFailureLine of the output, for a failed call. */
  failureLine?: string;
}

export type SessionEvent =
  | { type: 'user'; text: string; at?: number }
  | { type: 'assistant'; text: string; at?: number }
  | { type: 'tool'; call: SessionToolCall; at?: number }
  | { type: 'compaction'; summary: string; at?: number };

/** A sub-agent session (Claude Task/sidechains, Codex/Gemini sub-agents), linked by the call that started it. */
export interface SubagentLink {
  id: string;
  source?: string;
  parentCallId?: string;
}

export interface AgentSession {
  client: SessionClient;
  clientVersion?: string;
  id: string;
  /** The file(s) it was read from. */
  source: string;
  cwd?: string;
  gitRoot?: string;
  model?: string;
  /** ms since epoch */
  startedAt?: number;
  endedAt?: number;
  ending: SessionEnding;
  /** The client's own words for an error or usage-limit ending. */
  endingMessage?: string;
  events: SessionEvent[];
  /** Sub-agent sessions, linked by the call that started them. */
  subagents: SubagentLink[];
  /** Lines or records that could not be read (malformed, unknown type), counted, never a crash. */
  skipped: number;
  /** Set on a sub-agent's own session: the parent session's id. */
  parentId?: string;
  /** The title the client gave the session, when it keeps one (Claude's ai-title, Gemini's summary). */
  title?: string;
}

/**
 * One client's parser: fed the records of a session file in order (parsed JSON values, or
 * `undefined` for a line that did not parse), it builds the session. Pure: no I/O, no clock.
 */
export interface SessionParser {
  push(record: unknown): void;
  finish(): AgentSession;
}

/**
 * What a read from `start` (an incremental import) needs of the lines before it: the session's
 * head facts (Codex and Copilot name their id and cwd in the first line only) and the calls still
 * waiting for their result, so a result appended later attaches to its call.
 */
export interface SessionResume {
  meta: Pick<AgentSession, 'id' | 'cwd' | 'gitRoot' | 'model' | 'clientVersion' | 'title' | 'parentId'>;
  /** Calls read before `start` without a result yet (their arguments dropped), with their time. */
  pending: Array<{ call: SessionToolCall; at?: number }>;
}

/** Options of a reader of one session file (and of its client's parser: the bounds, so a huge file never becomes a huge session). */
export interface ReadSessionOptions {
  /** A tool result longer than this keeps its head and tail. @default DEFAULT_MAX_OUTPUT_CHARS */
  maxOutputChars?: number;
  /** A user or assistant text longer than this keeps its head and tail. @default DEFAULT_MAX_TEXT_CHARS */
  maxTextChars?: number;
  /** Byte offset to start at (an incremental import's last end; JSONL files only). @default 0 */
  start?: number;
  /**
   * With `start`: the head facts and open calls of the lines before it. A call of `pending` whose
   * result comes is a tool event of the new session at the result's time.
   */
  resume?: SessionResume;
}

/** A session file found in a client's store. */
export interface SessionFileEntry {
  client: SessionClient;
  file: string;
  size: number;
  mtimeMs: number;
  /**
   * True when the file's place already says it is this workspace's (Claude's project folder,
   * Gemini's project hash); false when its own record must say (Codex, Copilot: cwd inside).
   */
  placed: boolean;
}
