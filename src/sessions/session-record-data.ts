import path from 'node:path';
import type { AgentSessionClient, AgentSessionData, AgentSessionFailure } from '../ledger/index.js';
// The hooks' light face: `baton status` imports through here and must stay light.
import { summarizeSession, userPrompt } from '../hooks/light.js';
import { applyPlan, createdPlanItemId, openPlanItems, type PlanItem } from '../vocabulary/index.js';
import type { AgentSession, SessionToolCall } from './types.js';

/** Caps of an imported record's lists (the hooks' records keep the same sizes). */
const MAX_FILES = 50;
export const MAX_FAILURES = 10;
const MAX_TEXT = 500;

/** The ledger's record data of a session read from its client's own file. Pure. */
export function sessionRecordData(session: AgentSession, workspace: string, now: number): AgentSessionData {
  const calls = session.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
  const asked = session.events.filter((e) => e.type === 'user');
  // In the user's own words: Gemini's transcript keeps Baton's SessionStart context in front of a prompt.
  const prompts = asked.flatMap((e) => {
    const own = userPrompt(e.text);
    return own === undefined ? [] : [own];
  });
  const replies = session.events.flatMap((e) => (e.type === 'assistant' ? [e.text] : []));
  const files = [...new Set(editedFiles(calls).map((p) => relativeTo(workspace, session.cwd, p)))].sort();
  const startedAt = session.startedAt ?? session.endedAt ?? now;
  const lastActivityAt = session.endedAt ?? startedAt;
  const data: AgentSessionData = {
    // Discovery finds only the four clients with a store (Claude Code, Codex, Gemini CLI, Copilot CLI).
    client: session.client as AgentSessionClient,
    clientSessionId: session.id,
    workspace,
    ...(session.model === undefined ? {} : { model: session.model }),
    startedAt,
    lastActivityAt,
    endedAt: lastActivityAt,
    endReason: session.ending === 'unknown' ? 'imported' : session.ending,
    starts: {},
    turns: asked.length,
    toolCalls: calls.length,
    compactions: session.events.filter((e) => e.type === 'compaction').length,
    filesCreated: [],
    filesUpdated: files.slice(0, MAX_FILES),
    filesDeleted: [],
    failures: failuresOf(session),
    ...(prompts.length === 0 ? {} : { lastPrompt: cut(prompts.at(-1) as string) }),
    ...(replies.length === 0 ? {} : { lastReply: cut(replies.at(-1) as string) }),
    summary: '',
    origin: 'import',
    transcript: {
      file: session.source,
      ending: session.ending,
      ...(session.endingMessage === undefined ? {} : { endingMessage: cut(session.endingMessage) }),
      prompts: asked.length,
      skipped: session.skipped,
      ...(prompts[0] === undefined ? {} : { task: cut(prompts[0]) }),
      openPlan: sessionOpenPlan(calls).map((i) => i.text),
      importedAt: now,
    },
  };
  data.summary = summarizeSession(data, 'ended');
  return data;
}

export interface AppendedSession {
  data: AgentSessionData;
  /** The session's whole plan after the appended lines (kept for the next append). */
  plan: PlanItem[];
}

/**
 * The record data of a session file read incrementally: `previous` (what the lines before the
 * read's start gave) with `appended` (the session the new lines gave, read with `resume`) added.
 * `resumed` are the ids of the calls read before the start: they were counted then, so they count
 * no second call and apply no second plan change; their results (a failure) count now. Pure.
 */
export function appendSessionData(
  previous: AgentSessionData,
  previousPlan: readonly PlanItem[],
  appended: AgentSession,
  resumed: ReadonlySet<string>,
  now: number,
): AppendedSession {
  const add = sessionRecordData(appended, previous.workspace, now);
  const calls = appended.events.flatMap((e) => (e.type === 'tool' && !(e.call.id !== undefined && resumed.has(e.call.id)) ? [e.call] : []));
  const plan = sessionPlan(calls, previousPlan);
  const moved = appended.events.length > 0 || appended.ending !== 'unknown';
  const prior = previous.transcript;
  const data: AgentSessionData = {
    ...previous,
    ...(add.model === undefined ? {} : { model: add.model }),
    startedAt: appended.startedAt === undefined ? previous.startedAt : Math.min(previous.startedAt, add.startedAt),
    lastActivityAt: Math.max(previous.lastActivityAt, appended.endedAt ?? 0),
    endedAt: Math.max(previous.endedAt ?? previous.lastActivityAt, appended.endedAt ?? 0),
    endReason: moved ? add.endReason : previous.endReason,
    turns: previous.turns + add.turns,
    toolCalls: previous.toolCalls + calls.length,
    compactions: previous.compactions + add.compactions,
    filesUpdated: [...new Set([...previous.filesUpdated, ...add.filesUpdated])].sort().slice(0, MAX_FILES),
    failures: [...previous.failures, ...add.failures.map((f) => ({ ...f, turn: f.turn + previous.turns }))].slice(-MAX_FAILURES),
    ...(add.lastPrompt === undefined ? {} : { lastPrompt: add.lastPrompt }),
    ...(add.lastReply === undefined ? {} : { lastReply: add.lastReply }),
    summary: '',
    origin: 'import',
    transcript: {
      ...(prior ?? add.transcript),
      ...(add.transcript && moved ? { ending: add.transcript.ending } : {}),
      ...(add.transcript?.endingMessage === undefined ? {} : { endingMessage: add.transcript.endingMessage }),
      prompts: (prior?.prompts ?? 0) + (add.transcript?.prompts ?? 0),
      skipped: (prior?.skipped ?? 0) + appended.skipped,
      ...(prior?.task === undefined && add.transcript?.task !== undefined ? { task: add.transcript.task } : {}),
      openPlan: openPlanItems(plan).map((i) => i.text),
      importedAt: now,
    } as NonNullable<AgentSessionData['transcript']>,
  };
  data.summary = summarizeSession(data, 'ended');
  return { data, plan };
}

/** A session's whole plan, its plan calls applied in order to `initial` (the vocabulary's applyPlan). Pure. */
export function sessionPlan(calls: readonly SessionToolCall[], initial: readonly PlanItem[] = []): PlanItem[] {
  let plan: PlanItem[] = [...initial];
  for (const c of calls)
    if (c.plan && c.planMode) plan = applyPlan(plan, { plan: c.plan, planMode: c.planMode }, createdPlanItemId(c.output ?? ''));
  return plan;
}

/** The open items of a session's plan, its plan calls applied in order (the vocabulary's applyPlan). Pure. */
export function sessionOpenPlan(calls: readonly SessionToolCall[]): PlanItem[] {
  return openPlanItems(sessionPlan(calls));
}

/** The files the calls edited or wrote (failed calls left out), each once, oldest first. */
export function editedFiles(calls: readonly SessionToolCall[]): string[] {
  const out = new Set<string>();
  for (const c of calls) if (!c.failed && (c.kind === 'edit' || c.kind === 'write')) for (const p of c.paths) out.add(p);
  return [...out];
}

function failuresOf(session: AgentSession): AgentSessionFailure[] {
  const out: AgentSessionFailure[] = [];
  let turn = 0;
  for (const e of session.events) {
    if (e.type === 'user') turn += 1;
    if (e.type !== 'tool' || !e.call.failed) continue;
    out.push({
      command: cut(e.call.command ?? e.call.key ?? e.call.name, 200),
      ...(e.call.exitCode === undefined ? {} : { exitCode: e.call.exitCode }),
      ...(e.call.failureLine === undefined ? {} : { error: cut(e.call.failureLine) }),
      at: e.at ?? session.endedAt ?? 0,
      turn,
    });
  }
  return out.slice(-MAX_FAILURES);
}

function relativeTo(workspace: string, cwd: string | undefined, file: string): string {
  const absolute = path.resolve(cwd ?? workspace, file);
  const rel = path.relative(workspace, absolute);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

function cut(text: string, max = MAX_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
