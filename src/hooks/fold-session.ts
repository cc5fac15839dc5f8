import { isBatonError } from '../errors/index.js';
import { type AgentSessionData, type AgentSessionFailure, agentSessionId, type Ledger, recordAgentSessionTurn } from '../ledger/index.js';
import { maskSecretsSync } from '../redact/index.js';
import type { WorkspaceDiff } from '../workspace/index.js';
import { CLIENT_SPECS } from './client-specs.js';
import { readCodexExitCodes } from './codex-exit-codes.js';
import { type SessionFiles, sessionFiles } from './hook-paths.js';
import { readHookState, tryLock, writeHookState } from './hook-state.js';
import { readJournal } from './journal.js';
import { diffDirtyStates, type DirtyState, readDirtyState } from './measure-workspace.js';
import { ensureSessionRecord, mergeNotes, mergeTurn } from './session-record.js';
import type { HookInput, HookSessionState, JournalEntry } from './types.js';

/** What a fold wrote, for the caller (and tests). */
export interface FoldResult {
  /** False when another hook of the session held the fold lock. */
  folded: boolean;
  /** The turn's dispatch id, when the turn did something. */
  dispatchId?: string;
  diff?: WorkspaceDiff;
  failures: Array<Omit<AgentSessionFailure, 'turn'>>;
  /** The workspace as measured (reused by the caller for the context). */
  dirty?: DirtyState;
}

type ToolEntry = Extract<JournalEntry, { kind: 'tool' }>;

export interface FoldOptions {
  /**
   * Measure the workspace: always; only when the journal holds tool calls (`if-work`: a session's
   * end right after its Stop, which already measured, has no git to run inside Claude's 1.5 s);
   * or never, for a session folded on its behalf long after it stopped (the workspace has moved
   * on since: its tool calls and failures count, no files). @default true
   */
  measure?: boolean | 'if-work';
}

/**
 * Folds what a session did since the last fold into the ledger: the journal's new lines (tool
 * calls, failures, prompts, compactions) and the files that changed, measured from the workspace
 * against the last fold's measurement. A turn that used tools or changed files becomes one
 * dispatch (the session's next attempt); the session's record gets the merged lists and a new
 * summary. Idempotent: the dispatch id is the journal offset it starts at, and a fold that finds
 * it already written only moves the offset on. Holds the session's fold lock while it runs.
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
  const release = tryLock(files.lock, now);
  if (!release) return { folded: false, failures: [] };
  try {
    return await foldLocked(ledger, workspace, input, files, now, options);
  } finally {
    release();
  }
}

async function foldLocked(
  ledger: Ledger,
  workspace: string,
  input: HookInput,
  files: SessionFiles,
  now: number,
  options: FoldOptions,
): Promise<FoldResult> {
  const id = agentSessionId(input.client, input.sessionId);
  const state = readHookState(files.state) ?? freshState(input, now);
  const { entries, endByte } = readJournal(files.journal, state.foldedBytes);
  const tools = entries.filter((entry): entry is ToolEntry => entry.kind === 'tool');
  if (input.client === 'codex' && input.transcriptPath && tools.some((tool) => tool.callId)) {
    const { codes, endByte: transcriptBytes } = await readCodexExitCodes(input.transcriptPath, state.transcriptBytes ?? 0);
    for (const tool of tools) applyExitCode(tool, codes);
    state.transcriptBytes = transcriptBytes;
  }
  const measure = options.measure === 'if-work' ? tools.length > 0 : options.measure !== false;
  const dirty = measure ? await readDirtyState(workspace).catch(() => undefined) : undefined;
  const diff = measure ? await measureTurn(workspace, state, dirty, tools) : { created: [], updated: [], deleted: [] };
  const record = await ensureSessionRecord(ledger, id, input, workspace, state, now);
  const turnFailures = failuresOf(tools, now);
  const changed = diff.created.length + diff.updated.length + diff.deleted.length > 0;
  let dispatchId: string | undefined;
  if (tools.length > 0 || changed) {
    dispatchId = `${id}.${state.foldedBytes}`;
    await writeTurn(ledger, id, dispatchId, { input, entries, tools, diff, failures: turnFailures, record: record.data, state, now });
  } else if (entries.length > 0 || input.reply) {
    await ledger.updateRecord<AgentSessionData>('agent_sessions', id, { data: mergeNotes(record.data, entries, input, now) });
  }
  state.foldedBytes = endByte;
  if (dirty) {
    state.baseline = dirty.files;
    state.baseHead = dirty.head;
    state.baselineAt = now;
  }
  writeHookState(files.state, state);
  return { folded: true, dispatchId, diff, failures: turnFailures, dirty };
}

interface Turn {
  input: HookInput;
  entries: JournalEntry[];
  tools: ToolEntry[];
  diff: WorkspaceDiff;
  failures: Array<Omit<AgentSessionFailure, 'turn'>>;
  record: AgentSessionData;
  state: HookSessionState;
  now: number;
}

/** Appends the turn's dispatch and merges it into the session record; a dispatch already written is left. */
async function writeTurn(ledger: Ledger, id: string, dispatchId: string, turn: Turn): Promise<void> {
  const spec = CLIENT_SPECS[turn.input.client];
  const last = turn.failures[turn.failures.length - 1];
  const started = turn.entries[0]?.at ?? turn.now;
  try {
    await recordAgentSessionTurn(
      ledger,
      id,
      {
        id: dispatchId,
        provider: spec.provider,
        model: turn.input.model ?? turn.state.model,
        mode: 'interactive',
        status: last ? 'failed' : 'completed',
        outcome: last ? 'agent_error' : 'ok',
        ...(last?.exitCode === undefined ? {} : { exitCode: last.exitCode }),
        filesCreated: turn.diff.created,
        filesUpdated: turn.diff.updated,
        filesDeleted: turn.diff.deleted,
        validationErrors: turn.failures.map(describeFailure),
        result: turnResult(turn),
        startedAt: started,
        finishedAt: turn.now,
        durationMs: Math.max(0, turn.now - started),
      },
      (number) => mergeTurn(turn.record, { ...turn, turn: number }),
    );
  } catch (error) {
    if (!isBatonError(error, 'LEDGER_CONFLICT')) throw error;
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
  return {
    created: diff.created.filter((f) => named.has(f)),
    updated: diff.updated.filter((f) => named.has(f)),
    deleted: diff.deleted.filter((f) => named.has(f)),
  };
}

function hintedPaths(workspace: string, tools: ToolEntry[]): string[] {
  const prefix = `${workspace}/`;
  const out = new Set<string>();
  for (const tool of tools) for (const file of tool.paths ?? []) out.add(file.startsWith(prefix) ? file.slice(prefix.length) : file);
  return [...out].sort();
}

function applyExitCode(tool: ToolEntry, codes: Map<string, number>): void {
  const code = tool.callId === undefined ? undefined : codes.get(tool.callId);
  if (code === undefined) return;
  tool.exitCode = code;
  if (code !== 0) tool.failed = true;
  else delete tool.error;
}

function failuresOf(tools: ToolEntry[], now: number): Array<Omit<AgentSessionFailure, 'turn'>> {
  return tools
    .filter((tool) => tool.failed)
    .map((tool) => ({
      command: maskSecretsSync(tool.command ?? tool.tool).text.slice(0, 500),
      ...(tool.exitCode === undefined ? {} : { exitCode: tool.exitCode }),
      ...(tool.error ? { error: maskSecretsSync(tool.error).text } : {}),
      at: tool.at ?? now,
    }));
}

function describeFailure(failure: Omit<AgentSessionFailure, 'turn'>): string {
  const exit = failure.exitCode === undefined ? 'failed' : `exited ${failure.exitCode}`;
  const error = failure.error ? `: ${failure.error.split('\n').find((line) => line.trim() !== '') ?? ''}` : '';
  return `\`${failure.command.split('\n', 1)[0]}\` ${exit}${error}`.slice(0, 600);
}

function turnResult(turn: Turn): string {
  const { diff, tools, failures } = turn;
  const parts = [`${tools.length} tool call${tools.length === 1 ? '' : 's'}`];
  if (diff.created.length) parts.push(`created ${diff.created.slice(0, 10).join(', ')}`);
  if (diff.updated.length) parts.push(`changed ${diff.updated.slice(0, 10).join(', ')}`);
  if (diff.deleted.length) parts.push(`deleted ${diff.deleted.slice(0, 10).join(', ')}`);
  if (failures.length) parts.push(`${failures.length} failed: ${failures.map(describeFailure).join('; ')}`);
  return maskSecretsSync(parts.join('; ')).text.slice(0, 2_000);
}

/** State for a session whose start Baton did not see (hooks installed mid-session, or a failed start). */
export function freshState(input: HookInput, now: number): HookSessionState {
  return { client: input.client, sessionId: input.sessionId, foldedBytes: 0, baseline: {}, startedAt: now, model: input.model };
}
