import { createHash } from 'node:crypto';
// agent-sessions.js, not the ledger's index (it also exports the JSON-lines parser, which loads zod):
// `baton status` imports through here.
import type { LedgerRecord, LedgerRecords } from '../ledger/index.js';
import { agentSessionId, getAgentSession } from '../ledger/light.js';
import { discoverSessionFiles, type SessionFileEntry } from './discover-session-files.js';
import { isUnderRoots, workspaceRoots } from './discover-roots.js';
import { readHeadCwd } from './read-head-cwd.js';
import { readSessionFile } from './read-session-file.js';
import { mergeSessionData, sessionRecordData } from './session-record-data.js';
import { sessionStores } from './session-stores.js';
import type { AgentSession } from './types.js';

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
}

export interface ImportSessionsOptions {
  /** The folder the user works in: its git root and worktrees count too. */
  cwd: string;
  /** The workspace recorded on each session (the folder holding `.baton/`). @default cwd */
  workspace?: string;
  /** Where the client stores are read from (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME, HOME). */
  env: NodeJS.ProcessEnv;
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
 * Incremental: a file whose size and mtime are those of its last import is not opened, and a
 * Codex or Copilot file of another workspace is read once (its first line). Texts are redacted by
 * the readers and again by the ledger's writes.
 */
export async function importSessions(ledger: LedgerRecords, options: ImportSessionsOptions): Promise<ImportSessionsResult> {
  const t0 = performance.now();
  const now = options.now ?? Date.now();
  const workspace = options.workspace ?? options.cwd;
  const roots = await workspaceRoots(options.cwd);
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
    const { session, end } = await readSessionFile(entry.file, { client: entry.client });
    result.bytes += entry.size;
    result.skippedLines += session.skipped;
    const recordId = await storeSession(ledger, session, workspace, now);
    if (recordId) result.records.push(recordId);
    await saveState(ledger, entry, {
      ours: true,
      offset: end,
      skipped: session.skipped,
      ...(cwd ? { cwd } : {}),
      ...(recordId ? { recordId } : {}),
    });
    result.imported += 1;
  }
  result.ms = Math.round(performance.now() - t0);
  return result;
}

/** Writes the session's record (merged with the hooks' one); none for a sub-agent or an empty session. */
async function storeSession(ledger: LedgerRecords, session: AgentSession, workspace: string, now: number): Promise<string | undefined> {
  if (session.parentId !== undefined) return undefined;
  const calls = session.events.filter((e) => e.type === 'tool').length;
  const prompts = session.events.filter((e) => e.type === 'user').length;
  if (calls === 0 && prompts === 0) return undefined;
  const imported = sessionRecordData(session, workspace, now);
  const id = agentSessionId(imported.client, session.id);
  const current = await getAgentSession(ledger, id);
  if (!current) {
    await ledger.createRecord('agent_sessions', { id, status: 'ended', data: imported });
    return id;
  }
  await ledger.updateRecord('agent_sessions', id, { data: mergeSessionData(current.data, imported) });
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
  state: Pick<SessionImportState, 'ours' | 'offset' | 'skipped' | 'cwd' | 'recordId'>,
): Promise<void> {
  const id = `${entry.client}-${createHash('sha256').update(entry.file).digest('hex').slice(0, 24)}`;
  const data: SessionImportState = { file: entry.file, client: entry.client, size: entry.size, mtimeMs: entry.mtimeMs, ...state };
  const existing: LedgerRecord<SessionImportState> | undefined = await ledger.getRecord<SessionImportState>('session_imports', id);
  if (existing) await ledger.updateRecord('session_imports', id, { data });
  else await ledger.createRecord('session_imports', { id, data });
}
