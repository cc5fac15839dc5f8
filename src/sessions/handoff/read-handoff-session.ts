import path from 'node:path';
import type { AgentSessionData, AgentSessionRecord, LedgerRecords } from '../../ledger/index.js';
import { openPlanItems, type PlanItem } from '../../vocabulary/index.js';
import { importStateId, type SessionImportState } from '../import-sessions.js';
import { readSessionFile } from '../read-session-file.js';
import { editedFiles } from '../session-record-data.js';
import type { AgentSession, SessionClient } from '../types.js';
import { readSessionWindow, type SessionWindow } from './read-session-window.js';
import { TRANSCRIPT_TAIL_EVENTS } from './session-loop-events.js';
import { failureOf, type HandoffFacts, LAST_ACTIONS } from './session-facts-block.js';

export interface HandoffSession {
  /** The session (whole), or its first request and newest events (a window). */
  session: AgentSession;
  /** The header's facts when `session` is a window: from the ledger's record of the whole session. */
  facts?: HandoffFacts;
  /** Whether the file was read whole. */
  whole: boolean;
}

/**
 * The source session of a handoff, read at a cost that does not grow with its size: a JSONL
 * session file's head (first request) and tail (newest TRANSCRIPT_TAIL_EVENTS events) only, the
 * header's whole-session facts (files, newest failure, open plan, requests) taken from the
 * record the import keeps up to date in the ledger (and the plan it carries). A session the
 * window covers whole, or a file that is one JSON document (Gemini CLI), is read whole.
 */
export async function readHandoffSession(ledger: LedgerRecords, record: AgentSessionRecord): Promise<HandoffSession> {
  const client = record.data.client as SessionClient;
  const file = record.data.transcript?.file as string;
  const window = await readSessionWindow(file, client, TRANSCRIPT_TAIL_EVENTS, { expectedEvents: expectedEvents(record.data) });
  if (!window) return { session: (await readSessionFile(file, { client })).session, whole: true };
  if (window.whole) return { session: window.session, whole: true };
  // The session's whole plan as the import carried it (a JSONL file's import state), if any.
  const state = await ledger.getRecord<SessionImportState>('session_imports', importStateId(client, file));
  return { session: window.session, facts: windowFacts(record.data, window, state?.data.carry?.plan), whole: false };
}

/**
 * About how many events the session's file holds, from its record: each prompt, each call, and
 * about one reply for every two calls (the model's text between them: 0.4-0.9 a call in the
 * Claude Code fixtures). Undefined when the record counts nothing.
 */
function expectedEvents(data: AgentSessionData): number | undefined {
  const events = data.turns + data.toolCalls * 1.5;
  return events > 0 ? events : undefined;
}

/**
 * The header's facts from a window and the ledger's record of the whole session: the window's
 * newest work (last actions, newest failure and request, ending) first, the record for what
 * happened before it (earlier edited files, an older failure, the plan, the request count). Pure.
 */
export function windowFacts(data: AgentSessionData, window: SessionWindow, plan: PlanItem[] | undefined): HandoffFacts {
  const { session } = window;
  const calls = window.tail.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
  const requests = window.tail.flatMap((e) => (e.type === 'user' ? [e.text] : []));
  const task = window.first?.type === 'user' ? window.first.text : data.transcript?.task;
  const newest = requests.at(-1) ?? data.lastPrompt;
  const failed = [...calls].reverse().find((c) => c.failed);
  const older = data.failures.at(-1);
  const failure = failed
    ? failureOf(failed)
    : older && {
        what: older.command,
        ...(older.exitCode === undefined ? {} : { exitCode: older.exitCode }),
        ...(older.error ? { line: older.error } : {}),
      };
  const model = session.model ?? data.model;
  return {
    id: session.id || data.clientSessionId,
    ...(model ? { model } : {}),
    ending: session.ending,
    ...(session.endingMessage ? { endingMessage: session.endingMessage } : {}),
    ...(task === undefined ? {} : { task }),
    ...((data.transcript?.prompts ?? data.turns) > 1 && newest !== undefined ? { newestRequest: newest } : {}),
    files: withEarlierFiles(data, session.cwd, editedFiles(calls)),
    ...(failure ? { failure } : {}),
    plan: plan ? openPlanItems(plan) : (data.transcript?.openPlan ?? []).map((text) => ({ text, status: 'pending' as const })),
    lastActions: calls.slice(-LAST_ACTIONS),
  };
}

/** The record's files the window did not edit again (before it), then the window's, oldest first. */
function withEarlierFiles(data: AgentSessionData, cwd: string | undefined, recent: string[]): string[] {
  const seen = new Set(recent.map((p) => path.resolve(cwd ?? data.workspace, p)));
  const earlier = [...data.filesCreated, ...data.filesUpdated].filter((f) => !seen.has(path.resolve(data.workspace, f)));
  return [...new Set([...earlier, ...recent])];
}
