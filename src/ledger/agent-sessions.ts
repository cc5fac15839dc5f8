import { isBatonError } from '../errors/index.js';
import type { LedgerCore, LedgerRecords } from './ledger.js';
import type { Dispatch, LedgerRecord, NewAttemptDispatch } from './types.js';

/*
 * An interactive session of an agent CLI (Claude Code, Gemini CLI, Codex CLI), as its lifecycle
 * hooks record it: one `agent_sessions` record per client session, and one dispatch per turn that
 * did something (its `taskId` is the session's id, its `attempt` the turn number). So a session
 * sits beside supervised tasks: its turns are listed with the runs' dispatches (baton status,
 * baton ui, refresh's recent dispatches), and the session record says what the whole session did.
 */

/** Which agent CLI ran a session. */
export type AgentClient = 'claude' | 'gemini' | 'codex';
/** A client an agent_sessions record may name: the hook clients, and those only imported (Copilot CLI). */
export type AgentSessionClient = AgentClient | 'copilot';

/** How a client (re)entered a session: its SessionStart source. */
export type AgentSessionSource = 'startup' | 'resume' | 'clear' | 'compact';

/** Status of an agent_sessions record. */
export type AgentSessionStatus = 'active' | 'ended';

/** A command (or tool) that failed in a session, as the client reported it. */
export interface AgentSessionFailure {
  /** The command line or tool name, redacted and cut. */
  command: string;
  /** Exit code, when the client gives one. */
  exitCode?: number;
  /** The first lines of its error output, redacted and cut. */
  error?: string;
  at: number;
  /** The turn (the dispatch's attempt number) it happened in. */
  turn: number;
}

/** The `data` of an agent_sessions record. Lists are capped by the writer; timestamps are epoch ms. */
export interface AgentSessionData {
  client: AgentSessionClient;
  /** The client's own id: Claude's session_id, Gemini's session id, Codex's thread id. */
  clientSessionId: string;
  /** Absolute workspace folder (the one holding `.baton/`). */
  workspace: string;
  model?: string;
  startedAt: number;
  lastActivityAt: number;
  endedAt?: number;
  /** Why it ended, in the client's words (e.g. `other`, `exit`, `clear`). */
  endReason?: string;
  /** How often each SessionStart source fired. */
  starts: Partial<Record<AgentSessionSource, number>>;
  turns: number;
  toolCalls: number;
  compactions: number;
  /** Files the session created, changed or deleted, measured from the workspace (sorted, capped). */
  filesCreated: string[];
  filesUpdated: string[];
  filesDeleted: string[];
  /** The latest failures, oldest first (capped). */
  failures: AgentSessionFailure[];
  /** A session `baton run` started (BATON_SUPERVISED): the task and try it ran; its turns are that try's. */
  supervised?: { taskId?: string; attempt?: number };
  /** The session's latest turn was cut off by an API error (Claude's StopFailure; `rate_limit`: a usage limit). */
  cutOff?: { error: string; at: number; turn: number };
  /** The user's last prompt, redacted and cut. */
  lastPrompt?: string;
  /** The agent's last reply as the client reported it, redacted and cut. */
  lastReply?: string;
  /** A deterministic one-paragraph summary, rewritten at every turn and at the end. */
  summary: string;
  /** Who wrote the record first: the hooks (absent: records before imports existed) or an import. */
  origin?: 'hooks' | 'import';
  /** What an import read from the client's own session file (src/sessions). */
  transcript?: AgentSessionTranscript;
}

/** What an import read from a client's own session file. */
export interface AgentSessionTranscript {
  /** The session file (absolute). */
  file: string;
  /** How the session ended as its record tells (normal, error, usage_limit, interrupted, unknown). */
  ending: string;
  /** The client's own words for an error or usage-limit ending (redacted). */
  endingMessage?: string;
  prompts: number;
  /** Lines or records that could not be read (malformed, unknown), counted. */
  skipped: number;
  /** The session's first request, redacted and cut. */
  task?: string;
  /** Open items of the session's newest plan. */
  openPlan: string[];
  importedAt: number;
}

export type AgentSessionRecord = LedgerRecord<AgentSessionData>;
type SessionLedger = LedgerCore & LedgerRecords;

/** The ledger id of a client's session: `claude-<session_id>`. */
export function agentSessionId(client: AgentSessionClient, clientSessionId: string): string {
  return `${client}-${clientSessionId}`;
}

export function getAgentSession(ledger: LedgerRecords, id: string): Promise<AgentSessionRecord | undefined> {
  return ledger.getRecord<AgentSessionData>('agent_sessions', id);
}

/**
 * Creates the session's record, or, when it exists (a resume, a compaction), marks it active
 * again and merges `data` into it. Safe against a concurrent creator (the loser updates).
 */
export async function upsertAgentSession(
  ledger: LedgerRecords,
  id: string,
  data: AgentSessionData,
  merge: (current: AgentSessionData) => Partial<AgentSessionData>,
): Promise<AgentSessionRecord> {
  const current = await getAgentSession(ledger, id);
  if (current) return ledger.updateRecord<AgentSessionData>('agent_sessions', id, { status: 'active', data: merge(current.data) });
  try {
    return await ledger.createRecord<AgentSessionData>('agent_sessions', { id, status: 'active', data });
  } catch (error) {
    if (!isBatonError(error, 'LEDGER_CONFLICT')) throw error;
    const raced = await getAgentSession(ledger, id);
    return ledger.updateRecord<AgentSessionData>('agent_sessions', id, { status: 'active', data: merge(raced?.data ?? data) });
  }
}

/**
 * Records one turn: appends its dispatch as the session's next attempt (numbered atomically by
 * the ledger), then writes the session's new data. Returns both.
 */
export async function recordAgentSessionTurn(
  ledger: SessionLedger,
  id: string,
  dispatch: Omit<NewAttemptDispatch, 'taskId'>,
  data: (turn: number) => Partial<AgentSessionData>,
): Promise<{ dispatch: Dispatch; session: AgentSessionRecord }> {
  const appended = await ledger.appendNextAttempt({ ...dispatch, taskId: id });
  const session = await ledger.updateRecord<AgentSessionData>('agent_sessions', id, { data: data(appended.attempt) });
  return { dispatch: appended, session };
}

/** Marks a session ended (idempotent: a second end keeps the first end's time). */
export async function endAgentSession(
  ledger: LedgerRecords,
  id: string,
  data: Partial<AgentSessionData>,
): Promise<AgentSessionRecord | undefined> {
  const current = await getAgentSession(ledger, id);
  if (!current) return undefined;
  const endedAt = current.status === 'ended' ? (current.data.endedAt ?? data.endedAt) : data.endedAt;
  return ledger.updateRecord<AgentSessionData>('agent_sessions', id, { status: 'ended', data: { ...data, endedAt } });
}

export interface AgentSessionQuery {
  /** Only sessions in this workspace (absolute path). */
  workspace?: string;
  status?: AgentSessionStatus;
  /** @default 10 */
  limit?: number;
  /** Records read at most to find them (a shared Redis ledger holds other workspaces' too). @default 200 */
  scan?: number;
  /** Also list sessions that did nothing (no prompt, no turn, no tool call). @default false */
  includeEmpty?: boolean;
  /**
   * Also list the tries `baton run` supervised (`data.supervised`): their task's attempts record
   * them, so a window of sessions never counts them, even after an import of their transcript gave
   * them a prompt. @default false
   */
  includeSupervised?: boolean;
}

/** A session with no prompt, no turn and no tool call (`claude mcp list` fires SessionStart and SessionEnd): nothing to tell. */
export function isEmptyAgentSession(record: AgentSessionRecord): boolean {
  return record.data.turns === 0 && record.data.toolCalls === 0 && record.data.lastPrompt === undefined;
}

function didWork(record: AgentSessionRecord): boolean {
  const data = record.data;
  return data.failures.length + data.filesCreated.length + data.filesUpdated.length + data.filesDeleted.length > 0;
}

/**
 * The most recently active sessions, newest first, optionally of one workspace. Sessions that did
 * nothing are skipped before the newest `limit` are taken, and when none of those changed a file
 * or failed, the newest one that did takes the last place, however old (within `scan`).
 */
export async function listAgentSessions(ledger: LedgerRecords, query: AgentSessionQuery = {}): Promise<AgentSessionRecord[]> {
  const limit = query.limit ?? 10;
  const scan = query.scan ?? 200;
  const out: AgentSessionRecord[] = [];
  let cursor: string | undefined;
  let read = 0;
  while (limit > 0 && read < scan) {
    const page = await ledger.listRecords<AgentSessionData>('agent_sessions', {
      status: query.status,
      limit: Math.min(50, scan - read),
      cursor,
    });
    read += page.items.length;
    for (const record of page.items) {
      if (query.workspace !== undefined && record.data.workspace !== query.workspace) continue;
      if (!query.includeSupervised && record.data.supervised !== undefined) continue;
      if (!query.includeEmpty && isEmptyAgentSession(record)) continue;
      if (out.length < limit) out.push(record);
      else if (out.some(didWork)) return out;
      else if (didWork(record)) {
        out[limit - 1] = record;
        return out;
      }
    }
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  return out;
}
