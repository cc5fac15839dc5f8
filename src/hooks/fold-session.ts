import { stat } from 'node:fs/promises';
import type { AgentSessionData, Ledger } from '../ledger/index.js';
import { agentSessionId, getAgentSession } from '../ledger/light.js';
import type { AgentSession } from '../sessions/index.js';
import { mergeSessionData, readSessionFile, sessionRecordData } from '../sessions/light.js';
import type { WorkspaceDiff } from '../workspace/index.js';
import { acquireFoldLock } from './fold-lock.js';
import { type ToolEntry, writeBatch } from './fold-turn.js';
import { logHookProblem } from './hook-log.js';
import { hookLogFile, type SessionFiles, sessionFiles } from './hook-paths.js';
import { freshState, readHookState, writeHookState } from './hook-state.js';
import { finishJournalBatch, type JournalBatch, takeJournalBatch } from './journal.js';
import { diffDirtyStates, type DirtyState, readDirtyState } from './measure-workspace.js';
import { readTranscript } from './read-transcript.js';
import { closeSession, ensureSessionRecord } from './session-record.js';
import { cutOffEndReason } from './session-summary.js';
import type { HookInput, HookSessionState, JournalEntry } from './types.js';

/** What a fold did, for the caller. */
export interface FoldResult {
  /** False when another live hook of the session held the fold lock (it folds the same journal). */
  folded: boolean;
  /** The workspace as measured (reused by the caller for the context). */
  dirty?: DirtyState;
}

export interface FoldOptions {
  /**
   * Measure the workspace; not for a session folded on its behalf long after it stopped (the
   * workspace has moved on since: its tool calls and failures count, no files). @default true
   */
  measure?: boolean;
  /** How long to wait for a live hook of the session that holds the fold lock. @default 0 */
  waitMs?: number;
}

/** @default 2: batches one fold takes at most (what a dead fold left, then the journal). */
const MAX_BATCHES = 2;

/**
 * Folds what a session did since the last fold into the ledger: first what a fold that died
 * midway left (its folding file), then the journal's new lines (tool calls, failures, prompts,
 * compactions, the session's end), with the files that changed measured from the workspace
 * against the last fold's measurement. Each batch is written once (its dispatch id holds its
 * number) and its file removed after. Holds the session's fold lock while it runs; a lock whose
 * holder died is taken over (and said in the hooks' log).
 */
export async function foldSession(
  ledger: Ledger,
  workspace: string,
  input: HookInput,
  now: number,
  options: FoldOptions = {},
): Promise<FoldResult> {
  const id = agentSessionId(input.client, input.sessionId);
  const files = sessionFiles(workspace, id);
  const lock = await acquireFoldLock(files.lock, Date.now, options.waitMs ?? 0);
  if (!lock) return { folded: false };
  try {
    const holder = lock.tookOverFrom;
    if (holder) {
      const problem = `a fold of this session died midway (pid ${holder.pid}, started ${new Date(holder.at).toISOString()}): its lock was taken over and what it left folded`;
      await logHookProblem(hookLogFile(workspace), { event: input.event, client: input.client, session: input.sessionId, problem }, now);
    }
    return await foldLocked(ledger, workspace, input, files, now, options.measure ?? true);
  } finally {
    lock.release();
  }
}

async function foldLocked(
  ledger: Ledger,
  workspace: string,
  input: HookInput,
  files: SessionFiles,
  now: number,
  measure: boolean,
): Promise<FoldResult> {
  const id = agentSessionId(input.client, input.sessionId);
  const state = readHookState(files.state) ?? freshState(input, now);
  const dirty = measure ? await readDirtyState(workspace).catch(() => undefined) : undefined;
  let ended: Extract<JournalEntry, { kind: 'end' }> | undefined;
  for (let round = 0; round < MAX_BATCHES; round += 1) {
    const batch = takeJournalBatch(files, state.nextBatch ?? 0, round === 0 ? state.foldedBytes : 0);
    if (!batch && round > 0) break;
    const tools = (batch?.entries ?? []).filter((entry): entry is ToolEntry => entry.kind === 'tool');
    await applyCodexExitCodes(input, state, tools);
    // The files changed since the last fold go with the first batch.
    const diff = measure && round === 0 ? await measureTurn(workspace, state, dirty, tools) : { created: [], updated: [], deleted: [] };
    const number = batch?.number ?? state.nextBatch ?? 0;
    await writeBatch(ledger, id, { input, workspace, dispatchId: `${id}.b${number}`, entries: batch?.entries ?? [], diff, state, now });
    ended = batch?.entries.findLast((entry): entry is Extract<JournalEntry, { kind: 'end' }> => entry.kind === 'end') ?? ended;
    commitBatch(files, state, batch, number, dirty, now);
    if (!batch) break;
  }
  await importTranscript(ledger, input, workspace, files, state, now, ended);
  return { folded: true, dirty };
}

/**
 * Reads the session's own transcript (the hook input's `transcript_path`: Claude's JSONL, Codex's
 * rollout, Gemini's chat file) and merges what it holds into the session's record: every prompt,
 * tool call, failure with its exit code, plan and compaction. A missing or unreadable transcript
 * changes nothing (the next session start's import tries again). A transcript with no prompt and
 * no tool call (a `claude mcp list`) makes no record. The merge is the import's own
 * (mergeSessionData: measured facts win, otherwise the newest or most complete). The size the
 * transcript had before the read is kept in the state, so that a SessionEnd finding it unchanged
 * need not read it again.
 */
async function importTranscript(
  ledger: Ledger,
  input: HookInput,
  workspace: string,
  files: SessionFiles,
  state: HookSessionState,
  now: number,
  ended: Extract<JournalEntry, { kind: 'end' }> | undefined,
): Promise<void> {
  const file = input.transcriptPath;
  // A regular file only: a FIFO or a device would block the read.
  const before = file ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !before?.isFile()) return;
  const session = await readSessionFile(file, { client: input.client }).then(
    (read) => read.session,
    () => undefined,
  );
  const imported = session && session.parentId === undefined ? sessionRecordData(session, workspace, now) : undefined;
  if (session && imported && (imported.turns > 0 || imported.toolCalls > 0)) {
    const id = agentSessionId(input.client, input.sessionId);
    const existed = Boolean(await getAgentSession(ledger, id));
    const record = await ensureSessionRecord(ledger, id, input, workspace, state, now);
    const merged = mergeSessionData(record.data, imported, {
      promptAt: session.events.findLast((e) => e.type === 'user')?.at,
      hooked: true,
    });
    await ledger.updateRecord<AgentSessionData>('agent_sessions', id, { data: withTranscriptCutOff(merged, session, now) });
    // The transcript made the record after the batch's end found none to close.
    if (!existed && ended) await closeSession(ledger, id, ended.at, ended.reason);
  }
  state.transcriptSeen = { file, bytes: before.size };
  writeHookState(files.state, state);
}

/**
 * A transcript that ends in a usage limit is the cut-off even when its StopFailure hook has not
 * folded yet: Claude Code starts StopFailure and SessionEnd at the same moment, and whichever folds
 * first must record the session as ended by the limit.
 */
function withTranscriptCutOff(data: AgentSessionData, session: AgentSession, now: number): AgentSessionData {
  if (session.ending !== 'usage_limit' || data.cutOff) return data;
  const next: AgentSessionData = { ...data, cutOff: { error: 'rate_limit', at: session.endedAt ?? now, turn: data.turns } };
  if (next.endedAt !== undefined) next.endReason = cutOffEndReason('rate_limit');
  return next;
}

/** Records that a batch is in the ledger: the state moves past it (and to the new baseline), its file goes. */
function commitBatch(
  files: SessionFiles,
  state: HookSessionState,
  batch: JournalBatch | undefined,
  number: number,
  dirty: DirtyState | undefined,
  now: number,
): void {
  if (batch) state.nextBatch = Math.max(state.nextBatch ?? 0, number + 1);
  state.foldedBytes = 0;
  if (dirty) Object.assign(state, { baseline: dirty.files, baseHead: dirty.head, baselineAt: now });
  writeHookState(files.state, state);
  if (batch) finishJournalBatch(files, batch);
}

/** Codex's PostToolUse has no exit code: read them from its rollout for the batch's calls. */
async function applyCodexExitCodes(input: HookInput, state: HookSessionState, tools: ToolEntry[]): Promise<void> {
  if (input.client !== 'codex' || !input.transcriptPath || !tools.some((tool) => tool.callId)) return;
  const { codes, endByte } = await readCodexExitCodes(input.transcriptPath, state.transcriptBytes ?? 0);
  state.transcriptBytes = endByte;
  for (const tool of tools) {
    const code = tool.callId === undefined ? undefined : codes.get(tool.callId);
    if (code === undefined) continue;
    tool.exitCode = code;
    if (code !== 0) tool.failed = true;
    else delete tool.error;
  }
}

/** The files this turn changed: measured with git; outside git, the paths the tools named that exist. */
async function measureTurn(
  workspace: string,
  state: HookSessionState,
  dirty: DirtyState | undefined,
  tools: ToolEntry[],
): Promise<WorkspaceDiff> {
  const hinted = hintedPaths(workspace, tools);
  if (!dirty) return { created: [], updated: hinted, deleted: [] };
  const diff = await diffDirtyStates(workspace, { head: state.baseHead, files: state.baseline }, dirty);
  if (state.baselineAt !== undefined) return diff;
  // No measurement from before the session: only the files its tools named can be told apart
  // from work that was already there.
  const named = new Set(hinted);
  const keep = (files: string[]) => files.filter((file) => named.has(file));
  return { created: keep(diff.created), updated: keep(diff.updated), deleted: keep(diff.deleted) };
}

function hintedPaths(workspace: string, tools: ToolEntry[]): string[] {
  const prefix = `${workspace}/`;
  const out = new Set<string>();
  for (const tool of tools) for (const file of tool.paths ?? []) out.add(file.startsWith(prefix) ? file.slice(prefix.length) : file);
  return [...out].sort();
}

/** @default 8 MiB: rollout read at most per fold (the newest part when more was written). */
const MAX_ROLLOUT_READ = 8 * 1024 * 1024;

/**
 * Codex's PostToolUse carries no exit code; its rollout (the hook's `transcript_path`) does, in
 * the completed command item (`"exit_code": N`, keyed by the call id the hook received as
 * `tool_use_id`). Reads the rollout from `fromByte` and returns the exit codes it finds, with the
 * offset to start from next time. A rollout that cannot be read gives no codes (the failures then
 * stay unknown, never invented).
 */
async function readCodexExitCodes(file: string, fromByte: number): Promise<{ codes: Map<string, number>; endByte: number }> {
  const codes = new Map<string, number>();
  const range = await readTranscript(file, fromByte, MAX_ROLLOUT_READ);
  if (!range) return { codes, endByte: fromByte };
  const lastNewline = range.bytes.lastIndexOf(0x0a);
  if (lastNewline < 0) return { codes, endByte: range.start };
  for (const line of range.bytes.subarray(0, lastNewline).toString('utf8').split('\n')) {
    if (line.includes('"exit_code"')) collectExitCode(line, codes);
  }
  return { codes, endByte: range.start + lastNewline + 1 };
}

function collectExitCode(line: string, codes: Map<string, number>): void {
  try {
    const record = JSON.parse(line) as { payload?: Record<string, unknown> };
    const payload = record.payload ?? {};
    // item_completed { item: { id, exit_code } } (0.171) or exec_command_end { call_id, exit_code }.
    const item = (payload.item as Record<string, unknown> | undefined) ?? payload;
    const id = typeof item.id === 'string' ? item.id : typeof item.call_id === 'string' ? item.call_id : undefined;
    const code = item.exit_code;
    if (id && typeof code === 'number') codes.set(id, code);
  } catch {
    // a line Codex is still writing, or not JSON: skipped
  }
}
