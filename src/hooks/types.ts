import type { AgentClient, AgentSessionRecord, AgentSessionSource, Dispatch, Task } from '../ledger/index.js';
import type { DirtyState } from './measure-workspace.js';

export type { AgentClient, AgentSessionSource };

/**
 * What a hook does, whatever the client calls the event:
 * - `session-start`: inject Baton's context (startup, resume, clear, compact) and open the record;
 * - `prompt`: note the user's prompt (Claude UserPromptSubmit, Codex UserPromptSubmit);
 * - `post-tool`: note a tool call and whether it failed (the per-tool-call hook, kept cheap);
 * - `pre-compact`: fold the work so far into the ledger before the client compacts;
 * - `before-agent`: Gemini's BeforeAgent: inject once after a compression (no event follows one);
 * - `stop`: a turn ended: fold it into the ledger (one dispatch per turn);
 * - `session-end`: fold what is left and close the session's record.
 */
export const HOOK_EVENTS = ['session-start', 'prompt', 'post-tool', 'pre-compact', 'before-agent', 'stop', 'session-end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** A hook's stdin, normalized across clients. Fields a client does not send are absent. */
export interface HookInput {
  client: AgentClient;
  event: HookEvent;
  /** The client's session id (Codex: the thread id). */
  sessionId: string;
  /** The folder the client runs in. */
  cwd: string;
  /** The client's transcript file (Codex's rollout), when it names one. */
  transcriptPath?: string;
  /** SessionStart's source. */
  source?: AgentSessionSource;
  /** PreCompact / PreCompress trigger. */
  trigger?: 'manual' | 'auto';
  model?: string;
  prompt?: string;
  /** The agent's last message (Stop, AfterAgent). */
  reply?: string;
  /** SessionEnd's reason. */
  reason?: string;
  toolName?: string;
  toolInput?: Record<string, unknown>;
  /** The tool's result as the client gives it (text, or an object). */
  toolResponse?: unknown;
  toolUseId?: string;
  /** Claude's PostToolUseFailure error text. */
  toolError?: string;
  /** Whether the client reported the tool as failed (Claude PostToolUseFailure). */
  toolFailed?: boolean;
  /** Claude's StopFailure: the turn was cut off by an API error (`rate_limit`: a usage limit). */
  stopError?: string;
}

/** One line of a session's journal (`.baton/hooks/sessions/<id>.jsonl`), appended by the cheap hooks. */
export type JournalEntry =
  | {
      kind: 'tool';
      at: number;
      tool: string;
      command?: string;
      paths?: string[];
      failed?: boolean;
      exitCode?: number;
      error?: string;
      callId?: string;
    }
  | { kind: 'prompt'; at: number; prompt: string }
  | { kind: 'reply'; at: number; reply: string }
  | { kind: 'compact'; at: number; trigger: 'manual' | 'auto' }
  /** The turn was cut off by an API error (Claude's StopFailure; `rate_limit`: a usage limit). */
  | { kind: 'cut-off'; at: number; error: string }
  /** The session ended (SessionEnd): the fold that reads it closes the record, whichever hook runs it. */
  | { kind: 'end'; at: number; reason?: string };

/** Per-session state kept beside the journal (`.baton/hooks/sessions/<id>.json`). */
export interface HookSessionState {
  client: AgentClient;
  sessionId: string;
  /** The number of the next journal batch a fold takes (a batch's turn is written once, by its number). */
  nextBatch?: number;
  /** Journal bytes already folded, from before folds removed their journals (0 after the first fold). */
  foldedBytes: number;
  /** Bytes of Codex's rollout already read for exit codes. */
  transcriptBytes?: number;
  /**
   * The session's transcript as the last fold's import of it found it (its path and size): a
   * SessionEnd whose transcript only grew by lines no import reads closes the record without
   * reading it again (handle-session-end.ts).
   */
  transcriptSeen?: { file: string; bytes: number };
  /** Workspace files that differed from HEAD at the last fold (path -> size and mtime signature, or '-' when deleted). */
  baseline: Record<string, string>;
  /** HEAD at the last fold. */
  baseHead?: string;
  /** When `baseline` was measured; absent when Baton did not see the session start (no baseline yet). */
  baselineAt?: number;
  /** Digest of the context last injected into this session's history (without its date line). */
  injectedDigest?: string;
  injectedAt?: number;
  /** Gemini: a compression happened (or was due) and the context was not injected since. */
  compactPending?: boolean;
  /** Gemini: the last prompt's token count for which BeforeAgent took a compression as due (injected once per count). */
  compressedAtTokens?: number;
  model?: string;
  startedAt: number;
}

/** What a hook prints: the JSON the client reads on stdout, or nothing. */
export interface HookAnswer {
  stdout: string;
}

/** Everything a session-start context is rendered from. */
export interface HookContextData {
  workspace: string;
  now: number;
  /** The session the context is for (its ledger id). */
  sessionId: string;
  source: 'startup' | 'resume' | 'clear' | 'compact';
  git?: DirtyState;
  commits: Array<{ sha: string; subject: string; at: number }>;
  /** This workspace's sessions, newest activity first (the current one included). */
  sessions: AgentSessionRecord[];
  /** The newest dispatches of supervised runs (`baton run`), newest first. */
  runs: Dispatch[];
  /** The tasks those runs belong to, and open tasks. */
  tasks: Map<string, Task>;
  openTasks: Task[];
}
