import type { AgentSessionData } from '../ledger/index.js';
import { agentSessionId, getAgentSession, upsertAgentSession } from '../ledger/light.js';
import { buildInjection, readRecentCommits } from './build-injection.js';
import { foldSession } from './fold-session.js';
import { geminiPromptTokens } from './gemini-compression.js';
import { closeAbandonedSessions, foldLeftovers } from './fold-leftovers.js';
import { waitForHookJobs } from './hook-jobs.js';
import { sessionFiles } from './hook-paths.js';
import { freshState, readHookState, writeHookState } from './hook-state.js';
import { appendJournal, hasUnfolded } from './journal.js';
import { readDirtyState } from './measure-workspace.js';
import { importSessionsWithin } from '../sessions/light.js';
import { newSessionData } from './session-record.js';
import { summarizeSession } from './session-summary.js';
import type { AgentClient, AgentSessionSource, HookInput, HookSessionState } from './types.js';
import { BUSY_TIMEOUT_MS, withHookLedger } from './with-hook-ledger.js';

/** @default 3 s: how long a session start waits for the folds the last hooks handed off (hook-jobs.ts), inside its 6 s. */
const JOBS_WAIT_MS = 3_000;

/**
 * SessionStart (startup, resume, clear, compact): folds what a dead process of this session left
 * in its journal (after a compaction: the turn so far, with its transcript), measures the workspace (the baseline its turns are measured against), opens or
 * reopens the session's record, imports what is new in the agent CLIs' stores, and answers with the continuation context unless this session's
 * history already holds the same one.
 */
export async function handleSessionStart(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  // git runs in its own processes while the last session's handed-off fold finishes.
  const commits = readRecentCommits(workspace);
  await waitForHookJobs(workspace, env, JOBS_WAIT_MS);
  const id = agentSessionId(input.client, input.sessionId);
  const files = sessionFiles(workspace, id);
  const source: AgentSessionSource = input.source ?? 'startup';
  // After a compaction the work in flight is folded first (its transcript read), so the context
  // knows it: no PreCompact hook runs before (issue 37).
  const unfolded = hasUnfolded(files) || source === 'compact';
  // git runs in its own processes while this one loads and opens the ledger.
  const measuring = unfolded ? undefined : readDirtyState(workspace).catch(() => undefined);
  return withHookLedger(workspace, env, BUSY_TIMEOUT_MS.start, async (ledger) => {
    const folded = unfolded ? await foldSession(ledger, workspace, input, now) : undefined;
    const state = readHookState(files.state) ?? freshState(input, now);
    const dirty = folded ? folded.dirty : await measuring;
    if (state.baselineAt === undefined && dirty) Object.assign(state, { baseline: dirty.files, baseHead: dirty.head, baselineAt: now });
    if (input.model) state.model = input.model;
    // A session is recorded from its first prompt or tool call (a `claude mcp list` fires SessionStart and SessionEnd
    // and nothing else); a known one is reopened here.
    if (await getAgentSession(ledger, id))
      await upsertAgentSession(ledger, id, newSessionData(input, workspace, state, now), (current) =>
        reopened(current, source, input, now),
      );
    await foldLeftovers(ledger, workspace, files.dir, files.state, now);
    await closeAbandonedSessions(ledger, workspace, id, now);
    // A session whose hooks never ran (an untrusted Codex) reaches this one; bounded well inside the deadline.
    await importSessionsWithin(ledger, { cwd: workspace, workspace, env });
    const injection = await buildInjection({ ledger, workspace, input, sessionId: id, state, source, dirty, commits, now });
    if (injection) Object.assign(state, { injectedDigest: injection.digest, injectedAt: now, compactPending: false });
    writeHookState(files.state, state);
    return injection ? contextAnswer(input.client, 'SessionStart', injection.text) : '';
  });
}

function reopened(current: AgentSessionData, source: AgentSessionSource, input: HookInput, now: number): Partial<AgentSessionData> {
  const next: AgentSessionData = {
    ...current,
    lastActivityAt: now,
    starts: { ...current.starts, [source]: (current.starts[source] ?? 0) + 1 },
  };
  delete next.endedAt;
  delete next.endReason;
  if (input.model) next.model = input.model;
  next.summary = summarizeSession(next, 'active');
  return next;
}

/**
 * PreCompact (Claude, Codex) and PreCompress (Gemini): fold the work so far, so the context
 * injected after the compaction knows what was in flight. Gemini fires PreCompress before every
 * turn; only one that compresses (a manual /compress, or a last prompt past Gemini's threshold)
 * counts, and it marks the session so that the next BeforeAgent or AfterTool injects once.
 * Prints nothing: Claude rejects output from PreCompact, and the error would reach the model.
 */
export async function handlePreCompact(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  if (input.client === 'gemini' && input.trigger !== 'manual' && !(await geminiPromptTokens(input.transcriptPath))?.due) return '';
  const id = agentSessionId(input.client, input.sessionId);
  const files = sessionFiles(workspace, id);
  appendJournal(files.journal, files.dir, { kind: 'compact', at: now, trigger: input.trigger ?? 'auto' });
  await foldBeforeCompression(input, workspace, now, env);
  if (input.client === 'gemini') {
    const state = readHookState(files.state) ?? freshState(input, now);
    writeHookState(files.state, { ...state, compactPending: true });
  }
  return '';
}

/** The work so far folded before a compression (Gemini's BeforeAgent, when one is due). */
export async function foldBeforeCompression(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<void> {
  await withHookLedger(workspace, env, BUSY_TIMEOUT_MS.fold, (ledger) => foldSession(ledger, workspace, input, now));
}

/** The context after a Gemini compression, through BeforeAgent or AfterTool; clears the mark. */
export async function injectAfterCompression(
  input: HookInput,
  workspace: string,
  point: InjectionPoint,
  now: number,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const id = agentSessionId(input.client, input.sessionId);
  const files = sessionFiles(workspace, id);
  return withHookLedger(workspace, env, BUSY_TIMEOUT_MS.start, async (ledger) => {
    const state: HookSessionState = readHookState(files.state) ?? freshState(input, now);
    const dirty = await readDirtyState(workspace).catch(() => undefined);
    const injection = await buildInjection({ ledger, workspace, input, sessionId: id, state, source: 'compact', dirty, now });
    writeHookState(files.state, {
      ...state,
      compactPending: false,
      ...(injection ? { injectedDigest: injection.digest, injectedAt: now } : {}),
    });
    return injection ? contextAnswer(input.client, point, injection.text) : '';
  });
}

/** Where an injected context goes in: the client's event whose output carries `additionalContext`. */
export type InjectionPoint = 'SessionStart' | 'BeforeAgent' | 'AfterTool';

/**
 * The JSON a client reads from a hook that adds context. All three take
 * `hookSpecificOutput.additionalContext` with exit 0: Claude and Codex from SessionStart (Claude
 * shows it as a system reminder, Codex as a developer message), Gemini from SessionStart (before
 * the prompt), BeforeAgent (an extra part of the prompt) and AfterTool (after the tool's result).
 * Nothing else is ever printed: a hook that has nothing to add prints nothing.
 */
export function contextAnswer(client: AgentClient, point: InjectionPoint, text: string): string {
  if (point !== 'SessionStart' && client !== 'gemini') throw new Error(`${client} takes context only at SessionStart`);
  return JSON.stringify({ hookSpecificOutput: { hookEventName: point, additionalContext: text } });
}
