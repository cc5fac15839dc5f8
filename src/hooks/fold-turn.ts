import { isBatonError } from '../errors/index.js';
import type { AgentSessionData, AgentSessionFailure, Ledger } from '../ledger/index.js';
import { getAgentSession, recordAgentSessionTurn } from '../ledger/light.js';
import { maskSecretsSync } from '../redact/index.js';
import { pickFailureLine } from '../vocabulary/index.js';
import type { WorkspaceDiff } from '../workspace/index.js';
import { CLIENT_SPECS } from './client-specs.js';
import { closeSession, ensureSessionRecord, mergeNotes, mergeTurn } from './session-record.js';
import type { HookInput, HookSessionState, JournalEntry } from './types.js';

export type ToolEntry = Extract<JournalEntry, { kind: 'tool' }>;
export type TurnFailure = Omit<AgentSessionFailure, 'turn'>;

/** One journal batch with what was measured for it, ready to be written. */
export interface Turn {
  input: HookInput;
  workspace: string;
  /** The dispatch id: the session's id and the batch's number (written once). */
  dispatchId: string;
  entries: JournalEntry[];
  diff: WorkspaceDiff;
  state: HookSessionState;
  now: number;
}

/**
 * Writes one batch to the ledger: a turn that used tools or changed files becomes a dispatch
 * (the session's next attempt) merged into the session's record; prompts and replies alone only
 * update the record; an `end` entry closes it.
 */
export async function writeBatch(ledger: Ledger, id: string, turn: Turn): Promise<void> {
  const tools = turn.entries.filter((entry): entry is ToolEntry => entry.kind === 'tool');
  const failures = failuresOf(tools, turn.now);
  const changed = turn.diff.created.length + turn.diff.updated.length + turn.diff.deleted.length > 0;
  // A batch of nothing but the session's end (a session without a prompt or a tool call) creates no record.
  const something = tools.length > 0 || changed || turn.entries.some((entry) => entry.kind !== 'end') || Boolean(turn.input.reply);
  const record = something
    ? await ensureSessionRecord(ledger, id, turn.input, turn.workspace, turn.state, turn.now)
    : await getAgentSession(ledger, id);
  if (!record) return;
  if (tools.length > 0 || changed) {
    await writeTurn(ledger, id, { ...turn, tools, failures, record: record.data });
  } else if (turn.entries.length > 0 || turn.input.reply) {
    await ledger.updateRecord<AgentSessionData>('agent_sessions', id, {
      data: mergeNotes(record.data, turn.entries, turn.input, turn.now),
    });
  }
  const end = turn.entries.findLast((entry) => entry.kind === 'end');
  if (end) await closeSession(ledger, id, end.at, end.reason);
}

interface WrittenTurn extends Turn {
  tools: ToolEntry[];
  failures: TurnFailure[];
  record: AgentSessionData;
}

/** Appends the turn's dispatch and merges it into the session record; a dispatch already written is left. */
async function writeTurn(ledger: Ledger, id: string, turn: WrittenTurn): Promise<void> {
  const spec = CLIENT_SPECS[turn.input.client];
  const last = turn.failures[turn.failures.length - 1];
  const started = turn.entries[0]?.at ?? turn.now;
  try {
    await recordAgentSessionTurn(
      ledger,
      id,
      {
        id: turn.dispatchId,
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
    // The batch was written by a fold that died before removing it: written once.
    if (!isBatonError(error, 'LEDGER_CONFLICT')) throw error;
  }
}

function failuresOf(tools: ToolEntry[], now: number): TurnFailure[] {
  return tools
    .filter((tool) => tool.failed)
    .map((tool) => ({
      command: maskSecretsSync(tool.command ?? tool.tool).text.slice(0, 500),
      ...(tool.exitCode === undefined ? {} : { exitCode: tool.exitCode }),
      ...(tool.error ? { error: maskSecretsSync(tool.error).text } : {}),
      at: tool.at ?? now,
    }));
}

function describeFailure(failure: TurnFailure): string {
  const exit = failure.exitCode === undefined ? 'failed' : `exited ${failure.exitCode}`;
  // The telling line (the vocabulary's one picker: the assertion, the error, `not ok`, `FAIL`), not the tail's first line.
  const line = failure.error ? (pickFailureLine(failure.error) ?? failure.error.split('\n').find((l) => l.trim() !== '')) : undefined;
  const error = line ? `: ${line}` : '';
  return `\`${failure.command.split('\n', 1)[0]}\` ${exit}${error}`.slice(0, 600);
}

function turnResult(turn: WrittenTurn): string {
  const { diff, tools, failures } = turn;
  // The hooks note no tool call any more (the transcript has them, in the session's record): a count of 0 would mislead.
  const parts = tools.length === 0 ? [] : [`${tools.length} tool call${tools.length === 1 ? '' : 's'}`];
  if (diff.created.length) parts.push(`created ${diff.created.slice(0, 10).join(', ')}`);
  if (diff.updated.length) parts.push(`changed ${diff.updated.slice(0, 10).join(', ')}`);
  if (diff.deleted.length) parts.push(`deleted ${diff.deleted.slice(0, 10).join(', ')}`);
  if (failures.length) parts.push(`${failures.length} failed: ${failures.map(describeFailure).join('; ')}`);
  return maskSecretsSync(parts.join('; ')).text.slice(0, 2_000);
}
