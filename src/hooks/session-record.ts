import type { AgentSessionData, AgentSessionFailure, AgentSessionRecord, Ledger } from '../ledger/index.js';
import { endAgentSession, getAgentSession, upsertAgentSession } from '../ledger/light.js';
import { maskSecretsSync } from '../redact/index.js';
import type { WorkspaceDiff } from '../workspace/index.js';
import { cutOffEndReason, summarizeSession } from './session-summary.js';
import type { HookInput, HookSessionState, JournalEntry } from './types.js';

/** @default 200: files listed per kind in a session record (the dispatches keep each turn's own). */
export const MAX_SESSION_FILES = 200;
/** @default 10: failures kept in a session record (the newest). */
export const MAX_SESSION_FAILURES = 10;
/** @default 600: characters kept of the last prompt and the last reply. */
export const MAX_SESSION_TEXT = 600;

/** The record's data for a session seen for the first time. */
export function newSessionData(
  input: HookInput,
  workspace: string,
  state: Pick<HookSessionState, 'startedAt' | 'model'>,
  now: number,
): AgentSessionData {
  const data: AgentSessionData = {
    client: input.client,
    clientSessionId: input.sessionId,
    workspace,
    startedAt: state.startedAt,
    lastActivityAt: now,
    starts: input.source ? { [input.source]: 1 } : {},
    turns: 0,
    toolCalls: 0,
    compactions: 0,
    filesCreated: [],
    filesUpdated: [],
    filesDeleted: [],
    failures: [],
    summary: '',
  };
  const model = input.model ?? state.model;
  if (model) data.model = model;
  data.summary = summarizeSession(data, 'active');
  return data;
}

/** The session's record, created when the ledger does not have it yet. */
export async function ensureSessionRecord(
  ledger: Ledger,
  id: string,
  input: HookInput,
  workspace: string,
  state: HookSessionState,
  now: number,
): Promise<AgentSessionRecord> {
  const current = await getAgentSession(ledger, id);
  if (current) return current;
  return upsertAgentSession(ledger, id, newSessionData({ ...input, source: undefined }, workspace, state, now), () => ({}));
}

export interface TurnForRecord {
  entries: JournalEntry[];
  diff: WorkspaceDiff;
  failures: Array<Omit<AgentSessionFailure, 'turn'>>;
  input: HookInput;
  now: number;
  turn: number;
}

/** The record's new data after a turn: counts added, lists merged and capped, summary rewritten. */
export function mergeTurn(current: AgentSessionData, turn: TurnForRecord): Partial<AgentSessionData> {
  const next: AgentSessionData = {
    ...current,
    lastActivityAt: turn.now,
    turns: Math.max(current.turns, turn.turn),
    toolCalls: current.toolCalls + turn.entries.filter((entry) => entry.kind === 'tool').length,
    compactions: current.compactions + turn.entries.filter((entry) => entry.kind === 'compact').length,
    filesCreated: mergeFiles(current.filesCreated, turn.diff.created, turn.diff.deleted),
    filesUpdated: mergeFiles(current.filesUpdated, turn.diff.updated, turn.diff.deleted).filter((f) => !turn.diff.created.includes(f)),
    filesDeleted: mergeFiles(current.filesDeleted, turn.diff.deleted, [...turn.diff.created, ...turn.diff.updated]),
    failures: [...current.failures, ...turn.failures.map((failure) => ({ ...failure, turn: turn.turn }))].slice(-MAX_SESSION_FAILURES),
  };
  const model = turn.input.model ?? current.model;
  if (model) next.model = model;
  noteTexts(next, turn.entries, turn.input);
  next.summary = summarizeSession(next, 'active');
  return next;
}

/** The record's data after entries that made no turn (prompts, compactions): counts and texts only. */
export function mergeNotes(current: AgentSessionData, entries: JournalEntry[], input: HookInput, now: number): Partial<AgentSessionData> {
  const next: AgentSessionData = {
    ...current,
    lastActivityAt: now,
    compactions: current.compactions + entries.filter((entry) => entry.kind === 'compact').length,
  };
  noteTexts(next, entries, input);
  next.summary = summarizeSession(next, next.endedAt === undefined ? 'active' : 'ended');
  return next;
}

/**
 * The last prompt and reply into the record; a cut-off turn is kept until a later prompt or tool
 * call shows the session went on.
 */
function noteTexts(next: AgentSessionData, entries: JournalEntry[], input: HookInput): void {
  const prompt = entries.findLast((entry) => entry.kind === 'prompt');
  const lastPrompt = prompt?.kind === 'prompt' ? cut(prompt.prompt) : '';
  if (lastPrompt) next.lastPrompt = lastPrompt;
  const reply = entries.findLast((entry) => entry.kind === 'reply');
  const lastReply = input.reply ? cut(input.reply) : reply?.kind === 'reply' ? cut(reply.reply) : '';
  if (lastReply) next.lastReply = lastReply;
  const cutOff = entries.findLast((entry) => entry.kind === 'cut-off');
  if (cutOff?.kind === 'cut-off') {
    next.cutOff = { error: cutOff.error, at: cutOff.at, turn: next.turns };
    // SessionEnd's fold may have closed the record first: the cut-off is still why it ended.
    if (next.endedAt !== undefined) next.endReason = cutOffEndReason(cutOff.error);
  } else if (entries.some((entry) => entry.kind === 'prompt' || entry.kind === 'tool')) delete next.cutOff;
}

function mergeFiles(current: readonly string[], added: readonly string[], removed: readonly string[]): string[] {
  const gone = new Set(removed);
  const merged = new Set([...current.filter((file) => !gone.has(file)), ...added]);
  return [...merged].sort().slice(0, MAX_SESSION_FILES);
}

function cut(text: string): string {
  const masked = maskSecretsSync(text.trim()).text;
  return masked.length <= MAX_SESSION_TEXT ? masked : `${masked.slice(0, MAX_SESSION_TEXT - 1)}…`;
}

/** Closes the session's record with its summary (idempotent: a second end keeps the first's time). */
export async function closeSession(ledger: Ledger, id: string, at: number, reason: string | undefined): Promise<void> {
  const current = await getAgentSession(ledger, id);
  if (!current) return;
  // A session whose last turn was cut off (a usage limit) ended because of it, whatever SessionEnd says.
  const why = current.data.cutOff ? cutOffEndReason(current.data.cutOff.error) : reason;
  const data: AgentSessionData = { ...current.data, lastActivityAt: at, endedAt: at, ...(why ? { endReason: why } : {}) };
  data.summary = summarizeSession(data, 'ended');
  await endAgentSession(ledger, id, data);
}
