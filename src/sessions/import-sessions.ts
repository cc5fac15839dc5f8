import { createHash } from 'node:crypto';
// agent-sessions.js, not the ledger's index (it also exports the JSON-lines parser, which loads zod):
// `baton status` imports through here.
import type { AgentSessionData, LedgerRecords } from '../ledger/index.js';
import type { PlanItem } from '../vocabulary/index.js';
import { agentSessionId, getAgentSession } from '../ledger/light.js';
import { discoverSessionFiles } from './discover-session-files.js';
import { isUnderRoots, workspaceRoots } from './discover-roots.js';
import { readHeadCwd } from './read-head-cwd.js';
import { readSessionFile } from './read-session-file.js';
import { canAppend, HEAD_HASH_BYTES, headHash, type ImportCarry, nextResume } from './resume-import.js';
import { mergeSessionData } from './merge-session-data.js';
import { appendSessionData, sessionPlan, sessionRecordData } from './session-record-data.js';
import { sessionStores } from './session-stores.js';
import type { AgentSession, SessionFileEntry } from './types.js';

/** What the ledger remembers of one session file (collection `session_imports`). */
export interface SessionImportState {
  file: string;
  client: string;
  size: number;
  mtimeMs: number;
  /** Bytes read: the end of the last whole line (the file's size for a JSON document). */
  offset: number;
  /** The cwd the file names (Codex, Copilot), read once. */
  cwd?: string;
  /** False: another workspace's session, never read again. */
  ours: boolean;
  /** The agent_sessions record it went to. */
  recordId?: string;
  skipped: number;
  /** What reading on from `offset` needs (a JSONL file with a record): see resume-import.ts. */
  carry?: ImportCarry;
}

export interface ImportSessionsOptions {
  /** The folder the user works in: its git root and worktrees count too. */
  cwd: string;
  /** The workspace recorded on each session (the folder holding `.baton/`). @default cwd */
  workspace?: string;
  /** Where the client stores are read from (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME, HOME). */
  env: NodeJS.ProcessEnv;
  /** The roots of `cwd` when the caller has them (sessionWorkspaceOf). @default workspaceRoots(cwd) */
  roots?: readonly string[];
  now?: number;
}

export interface ImportSessionsResult {
  /** Session files found that may be this workspace's. */
  found: number;
  /** Files read and written to the ledger. */
  imported: number;
  /** Files unchanged since the last import (same size and mtime), not opened. */
  unchanged: number;
  /** Files of other workspaces (their cwd is elsewhere). */
  foreign: number;
  /** Malformed or unknown lines skipped in the files read. */
  skippedLines: number;
  bytes: number;
  ms: number;
  /** The agent_sessions records written. */
  records: string[];
}

/**
 * Imports this workspace's sessions from every agent CLI's own store into the ledger's
 * agent_sessions records (one per client and session id, merged with what the hooks recorded).
 * Incremental: a file whose size and mtime are those of its last import is not opened; a JSONL
 * file that grew since (same head bytes) is read from its stored offset only, its whole lines
 * (a partial last line waits for the next import), and added to what the earlier lines gave; a
 * file that shrank or was rewritten is read whole. A Codex or Copilot file of another workspace
 * is read once (its first line). Texts are redacted by the readers and again by the ledger's writes.
 */
export async function importSessions(ledger: LedgerRecords, options: ImportSessionsOptions): Promise<ImportSessionsResult> {
  const t0 = performance.now();
  const now = options.now ?? Date.now();
  const workspace = options.workspace ?? options.cwd;
  const roots = options.roots ?? (await workspaceRoots(options.cwd));
  const [files, known] = await Promise.all([discoverSessionFiles(sessionStores(options.env), roots), importStates(ledger)]);
  const result: ImportSessionsResult = { found: 0, imported: 0, unchanged: 0, foreign: 0, skippedLines: 0, bytes: 0, ms: 0, records: [] };
  for (const entry of files) {
    const prior = known.get(entry.file);
    if (prior && prior.size === entry.size && prior.mtimeMs === entry.mtimeMs) {
      if (prior.ours) result.found += 1;
      if (prior.ours) result.unchanged += 1;
      else result.foreign += 1;
      continue;
    }
    const cwd = entry.placed ? undefined : (prior?.cwd ?? (await readHeadCwd(entry.file)));
    if (!entry.placed && !isUnderRoots(cwd, roots)) {
      result.foreign += 1;
      if (!prior) await saveState(ledger, entry, { ours: false, offset: 0, skipped: 0, ...(cwd ? { cwd } : {}) });
      continue;
    }
    result.found += 1;
    await importFile(ledger, entry, prior, { workspace, now, ...(cwd ? { cwd } : {}) }, result);
    result.imported += 1;
  }
  result.ms = Math.round(performance.now() - t0);
  return result;
}

/** Reads one changed file (from its offset when it only grew), writes its record and its import state. */
async function importFile(
  ledger: LedgerRecords,
  entry: SessionFileEntry,
  prior: SessionImportState | undefined,
  where: { workspace: string; now: number; cwd?: string },
  result: ImportSessionsResult,
): Promise<void> {
  const carry = prior?.ours ? prior.carry : undefined;
  const append = prior !== undefined && carry !== undefined && (await canAppend(entry, prior.offset, prior.size, carry));
  const start = append ? prior.offset : 0;
  const { session, end } = await readSessionFile(entry.file, {
    client: entry.client,
    ...(append ? { start, resume: carry.resume } : {}),
  });
  result.bytes += entry.size - start;
  result.skippedLines += session.skipped;
  let data: AgentSessionData | undefined;
  let plan: PlanItem[] = [];
  if (append) {
    const resumed = new Set(carry.resume.pending.flatMap((p) => (p.call.id === undefined ? [] : [p.call.id])));
    ({ data, plan } = appendSessionData(carry.imported, carry.plan, session, resumed, where.now));
  } else if (storable(session)) {
    data = sessionRecordData(session, where.workspace, where.now);
    plan = sessionPlan(session.events.flatMap((e) => (e.type === 'tool' ? [e.call] : [])));
  }
  const recordId = data ? await storeSession(ledger, data, session.id) : undefined;
  if (recordId) result.records.push(recordId);
  const headBytes = Math.min(HEAD_HASH_BYTES, end);
  const nextCarry: ImportCarry | undefined =
    data && entry.file.endsWith('.jsonl')
      ? {
          headHash: await headHash(entry.file, headBytes),
          headBytes,
          resume: nextResume(session, append ? carry.resume : undefined),
          plan,
          imported: data,
        }
      : undefined;
  await saveState(ledger, entry, {
    ours: true,
    offset: end,
    skipped: (append ? prior.skipped : 0) + session.skipped,
    ...(where.cwd ? { cwd: where.cwd } : {}),
    ...(recordId ? { recordId } : {}),
    ...(nextCarry ? { carry: nextCarry } : {}),
  });
}

/** A session worth a record: not a sub-agent's, and with a prompt or a call. */
function storable(session: AgentSession): boolean {
  return session.parentId === undefined && session.events.some((e) => e.type === 'tool' || e.type === 'user');
}

/** Writes the session's record (merged with the hooks' one). */
async function storeSession(ledger: LedgerRecords, imported: AgentSessionData, sessionId: string): Promise<string> {
  const id = agentSessionId(imported.client, sessionId);
  const current = await getAgentSession(ledger, id);
  if (current) await ledger.updateRecord('agent_sessions', id, { data: mergeSessionData(current.data, imported) });
  else await ledger.createRecord('agent_sessions', { id, status: 'ended', data: imported });
  return id;
}

async function importStates(ledger: LedgerRecords): Promise<Map<string, SessionImportState>> {
  const out = new Map<string, SessionImportState>();
  let cursor: string | undefined;
  do {
    const page = await ledger.listRecords<SessionImportState>('session_imports', { limit: 500, ...(cursor ? { cursor } : {}) });
    for (const record of page.items) out.set(record.data.file, record.data);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return out;
}

async function saveState(
  ledger: LedgerRecords,
  entry: SessionFileEntry,
  state: Pick<SessionImportState, 'ours' | 'offset' | 'skipped' | 'cwd' | 'recordId' | 'carry'>,
): Promise<void> {
  const id = importStateId(entry.client, entry.file);
  const data: SessionImportState = { file: entry.file, client: entry.client, size: entry.size, mtimeMs: entry.mtimeMs, ...state };
  if (await ledger.getRecord<SessionImportState>('session_imports', id)) await ledger.updateRecord('session_imports', id, { data });
  else await ledger.createRecord('session_imports', { id, data });
}

/** The id of a session file's `session_imports` record. */
export function importStateId(client: string, file: string): string {
  return `${client}-${createHash('sha256').update(file).digest('hex').slice(0, 24)}`;
}
