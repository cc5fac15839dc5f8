import { CLIENT_LIMITS, type ClientLimits } from '../clients/index.js';
import type { Ledger, Task } from '../ledger/index.js';
import { listAgentSessions } from '../ledger/light.js';
import { runGit } from '../workspace/index.js';
import { CLIENT_SPECS } from './client-specs.js';
import type { DirtyState } from './measure-workspace.js';
import { type HookContextLimits, type RenderedHookContext, renderHookContext, TOP } from './render-hook-context.js';
import type { AgentSessionSource, HookContextData, HookInput, HookSessionState } from './types.js';

/** The cap on a client's injected context: its characters, and its tokens when it cuts by tokens. */
export function contextBudget(client: HookInput['client']): HookContextLimits {
  const limits: ClientLimits = CLIENT_LIMITS[client];
  return { chars: limits.maxContextChars ?? Infinity, tokens: limits.maxContextTokens };
}

export interface InjectionRequest {
  ledger: Ledger;
  workspace: string;
  input: HookInput;
  /** The ledger id of the session. */
  sessionId: string;
  state: HookSessionState;
  source: AgentSessionSource;
  /** The workspace as just measured, when the caller has it. */
  dirty: DirtyState | undefined;
  /** The last commits, when the caller started reading them already. */
  commits?: Promise<HookContextData['commits']>;
  now: number;
}

/**
 * The context to inject, or undefined when there is nothing to say, or when this session's
 * history already holds the same context (a resume in Claude Code or Codex, which keep the
 * earlier copies): compared by digest, which leaves out the date line. After a compaction or a
 * clear the history lost the earlier copy, so the context goes in again; Gemini does not keep it
 * across a resume either.
 */
export async function buildInjection(request: InjectionRequest): Promise<RenderedHookContext | undefined> {
  const { ledger, workspace } = request;
  const [ledgerPart, commits] = await Promise.all([
    gatherLedgerContext(ledger, workspace),
    request.commits ?? readRecentCommits(workspace),
  ]);
  const rendered = renderHookContext(
    { workspace, now: request.now, sessionId: request.sessionId, source: request.source, git: request.dirty, commits, ...ledgerPart },
    contextBudget(request.input.client),
  );
  if (!rendered.hasContent) return undefined;
  const historyKeepsCopy =
    CLIENT_SPECS[request.input.client].historyKeepsContext && (request.source === 'resume' || request.source === 'startup');
  if (historyKeepsCopy && request.state.injectedDigest === rendered.digest) return undefined;
  return rendered;
}

/**
 * Reads the ledger for a session start: this workspace's latest agent sessions, the latest run
 * dispatches (the sessions' own turns are left out: the session records say it better), their
 * tasks, and the open (in progress or blocked) tasks. A handful of bounded reads.
 */
async function gatherLedgerContext(
  ledger: Ledger,
  workspace: string,
): Promise<Pick<HookContextData, 'sessions' | 'runs' | 'tasks' | 'openTasks'>> {
  const [sessions, dispatches, open] = await Promise.all([
    listAgentSessions(ledger, { workspace, limit: TOP.sessions }),
    ledger.recentDispatches(TOP.runs * 4),
    ledger.listTasks({ status: ['in_progress', 'blocked'], limit: 50 }),
  ]);
  const runs = dispatches.filter((dispatch) => dispatch.mode !== 'interactive').slice(0, TOP.runs);
  const ids = [...new Set(runs.map((dispatch) => dispatch.taskId))];
  const found = await ledger.getTasks(ids);
  const tasks = new Map<string, Task>();
  for (const task of [...found, ...open.items]) if (task) tasks.set(task.id, task);
  const openTasks = [...open.items].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, TOP.tasks);
  return { sessions, runs, tasks, openTasks };
}

/** The last commits (subject and time), or none outside git or on an unborn branch. */
export async function readRecentCommits(workspace: string): Promise<HookContextData['commits']> {
  try {
    const { stdout } = await runGit(['log', `-n${TOP.commits}`, '--format=%h%x1f%s%x1f%ct%x1e'], workspace);
    return stdout
      .split('\x1e')
      .map((record) => record.trim())
      .filter(Boolean)
      .map((record) => {
        const [sha = '', subject = '', at = '0'] = record.split('\x1f');
        return { sha, subject, at: Number(at) * 1000 };
      });
  } catch {
    return [];
  }
}
