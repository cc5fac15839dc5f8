import type { AgentSessionData } from '../ledger/index.js';
// The hooks' light face: `baton status` imports through here and must stay light.
import { summarizeSession } from '../hooks/light.js';
import { openPlanItems, type PlanItem } from '../vocabulary/index.js';
import { sessionPlan } from './session-open-plan.js';
import { sessionRecordData } from './session-record-data.js';
import type { AgentSession } from './types.js';

const MAX_FILES = 50;
const MAX_FAILURES = 10;

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
