import type { AgentSessionRecord, Dispatch, Ledger, Task } from '../ledger/index.js';
import { listAgentSessions } from '../ledger/light.js';
import { runGit } from '../workspace/index.js';
import type { DirtyState } from './measure-workspace.js';

/** Everything a session-start context is rendered from. */
export interface HookContextData {
  workspace: string;
  now: number;
  /** The session the context is for (its ledger id). */
  sessionId: string;
  source: 'startup' | 'resume' | 'clear' | 'compact';
  git?: DirtyState;
  commits: Array<{ sha: string; subject: string; at: number }>;
  /** This workspace's sessions, newest activity first (the current one included). */
  sessions: AgentSessionRecord[];
  /** The newest dispatches of supervised runs (`baton run`), newest first. */
  runs: Dispatch[];
  /** The tasks those runs belong to, and open tasks. */
  tasks: Map<string, Task>;
  openTasks: Task[];
}

/** @default 6 sessions, 6 run dispatches, 10 open tasks: what the largest budget can show. */
export const CONTEXT_LIMITS = { sessions: 6, runs: 6, openTasks: 10, commits: 3 } as const;

/**
 * Reads the ledger for a session start: this workspace's latest agent sessions, the latest run
 * dispatches (the sessions' own turns are left out: the session records say it better), their
 * tasks, and the open (in progress or blocked) tasks. A handful of bounded reads.
 */
export async function gatherLedgerContext(
  ledger: Ledger,
  workspace: string,
): Promise<Pick<HookContextData, 'sessions' | 'runs' | 'tasks' | 'openTasks'>> {
  const [sessions, dispatches, open] = await Promise.all([
    listAgentSessions(ledger, { workspace, limit: CONTEXT_LIMITS.sessions }),
    ledger.recentDispatches(CONTEXT_LIMITS.runs * 4),
    ledger.listTasks({ status: ['in_progress', 'blocked'], limit: 50 }),
  ]);
  const runs = dispatches.filter((dispatch) => dispatch.mode !== 'interactive').slice(0, CONTEXT_LIMITS.runs);
  const ids = [...new Set(runs.map((dispatch) => dispatch.taskId))];
  const found = await ledger.getTasks(ids);
  const tasks = new Map<string, Task>();
  for (const task of [...found, ...open.items]) if (task) tasks.set(task.id, task);
  const openTasks = [...open.items].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, CONTEXT_LIMITS.openTasks);
  return { sessions, runs, tasks, openTasks };
}

/** The last commits (subject and time), or none outside git or on an unborn branch. */
export async function readRecentCommits(workspace: string, limit = CONTEXT_LIMITS.commits): Promise<HookContextData['commits']> {
  try {
    const { stdout } = await runGit(['log', `-n${limit}`, '--format=%h%x1f%s%x1f%ct%x1e'], workspace);
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
