import type { AgentSessionData, AgentSessionFailure } from '../ledger/index.js';
// The hooks' light face: `baton status` imports through here and must stay light.
import { summarizeSession } from '../hooks/light.js';
import { MAX_FAILURES } from './session-record-data.js';

export interface MergeSessionOptions {
  /** When the transcript's newest prompt was sent: a cut-off turn before it is over. */
  promptAt?: number;
  /** The caller is the hooks' fold: the record is theirs, whoever wrote it first. */
  hooked?: boolean;
}

/**
 * The one rule for a session both the hooks recorded and a transcript read gave (issue 37: one
 * session, measured facts win), used by `baton sessions import` and by the hooks' fold alike.
 * `current` is the ledger's record, `imported` the transcript's record data.
 * - Measured facts win: the files the hooks measured from the workspace stay (the transcript's
 *   edited files only when none were measured), and a measured failure's exit code and error
 *   replace the transcript's claim about the same command; the transcript's other failures are
 *   added (it saw every call).
 * - Otherwise the newest or most complete: the transcript's prompts (it holds every one), counts
 *   (the larger), start (the earlier), ending and plan; the last reply of whichever source saw
 *   the later activity (the Stop hook's reply is newer than a transcript not yet flushed).
 * A record no hook ever touched (an earlier import's) is replaced by the new import. Pure.
 */
export function mergeSessionData(
  current: AgentSessionData,
  imported: AgentSessionData,
  options: MergeSessionOptions = {},
): AgentSessionData {
  if (!options.hooked && !hookTouched(current)) return imported;
  const hooksNewer = current.lastActivityAt >= imported.lastActivityAt;
  const next: AgentSessionData = {
    ...current,
    model: current.model ?? imported.model,
    startedAt: Math.min(current.startedAt, imported.startedAt),
    lastActivityAt: Math.max(current.lastActivityAt, imported.lastActivityAt),
    turns: Math.max(current.turns, imported.turns),
    toolCalls: Math.max(current.toolCalls, imported.toolCalls),
    compactions: Math.max(current.compactions, imported.compactions),
    failures: mergeFailures(current.failures, imported.failures),
    lastPrompt: imported.lastPrompt ?? current.lastPrompt,
    lastReply: hooksNewer ? (current.lastReply ?? imported.lastReply) : (imported.lastReply ?? current.lastReply),
    transcript: imported.transcript ?? current.transcript,
  };
  if (!next.lastPrompt) delete next.lastPrompt;
  if (!next.lastReply) delete next.lastReply;
  if (!next.transcript) delete next.transcript;
  if (next.model === undefined) delete next.model;
  const measured = current.filesCreated.length + current.filesUpdated.length + current.filesDeleted.length > 0;
  if (!measured) next.filesUpdated = imported.filesUpdated;
  if (next.cutOff && options.promptAt !== undefined && options.promptAt > next.cutOff.at) delete next.cutOff;
  next.summary = summarizeSession(next, next.endedAt === undefined ? 'active' : 'ended');
  return next;
}

/** Whether a hook wrote to the record (it may hold measured facts), not an import alone. */
function hookTouched(data: AgentSessionData): boolean {
  return data.origin !== 'import' || Object.keys(data.starts).length > 0 || data.cutOff !== undefined || data.supervised !== undefined;
}

/**
 * The transcript's failures with each measured one laid over its claim about the same command
 * (newest to newest: its exit code and error win); a measured failure the transcript lacks is kept.
 */
export function mergeFailures(measured: readonly AgentSessionFailure[], claimed: readonly AgentSessionFailure[]): AgentSessionFailure[] {
  const out = claimed.map((f) => ({ ...f }));
  const used = new Set<number>();
  const extra: AgentSessionFailure[] = [];
  for (const m of [...measured].reverse()) {
    const i = out.findLastIndex((f, k) => !used.has(k) && firstLine(f.command) === firstLine(m.command));
    if (i === -1) {
      extra.push(m);
      continue;
    }
    used.add(i);
    const claim = out[i] as AgentSessionFailure;
    out[i] = { ...claim, ...(m.exitCode === undefined ? {} : { exitCode: m.exitCode }), ...(m.error ? { error: m.error } : {}) };
  }
  return [...extra.reverse(), ...out].sort((a, b) => a.at - b.at).slice(-MAX_FAILURES);
}

function firstLine(command: string): string {
  return command.split('\n', 1)[0]?.trim() ?? '';
}
