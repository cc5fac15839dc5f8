import type { AgentSessionRecord } from '../ledger/index.js';
import { cutOffCause, oneLine } from './session-summary.js';
import type { HookContextData } from './types.js';

/**
 * One next step, from the record alone, in order of urgency: a turn cut off by a usage limit; a command that failed in the latest
 * turn of the latest session; a blocked task; a task in progress; a failed run; uncommitted
 * changes; the last request. Pure.
 */
export function nextStep(data: HookContextData): string {
  // The latest session that did something (the one starting now has not, yet).
  const latest = latestActiveSession(data.sessions);
  const urgent = sessionNextStep(data.sessions);
  if (urgent) return urgent;
  const blocked = data.openTasks.find((task) => task.status === 'blocked');
  if (blocked)
    return `Task ${blocked.id} "${oneLine(blocked.title, 80)}" is blocked${blocked.blockReason ? ` (${oneLine(blocked.blockReason, 160)})` : ''}: unblock it, work around it, or say what it needs.`;
  const inProgress = data.openTasks.find((task) => task.status === 'in_progress');
  if (inProgress) return `Continue task ${inProgress.id} "${oneLine(inProgress.title, 100)}".`;
  const failedRun = data.runs[0]?.status === 'failed' ? data.runs[0] : undefined;
  if (failedRun)
    return `The last run of task ${failedRun.taskId} failed (${failedRun.outcome ?? 'failed'}): look at its errors above before running it again.`;
  const changed = Object.keys(data.git?.files ?? {}).length;
  if (changed > 0) return `Review the uncommitted ${changed === 1 ? 'file' : `${changed} files`} above and commit when right.`;
  if (latest?.data.lastPrompt) return `Check whether the last request ("${oneLine(latest.data.lastPrompt, 160)}") is done.`;
  return 'Nothing is in flight: ask what to do next.';
}

function latestActiveSession(sessions: readonly AgentSessionRecord[]): AgentSessionRecord | undefined {
  return sessions.find((record) => record.data.turns > 0 || record.data.lastPrompt !== undefined);
}

/**
 * The next step the newest agent session that did something asks for, when it is urgent: its last
 * turn was cut off (usage limit, API error), or a command failed in its latest turn. Undefined
 * otherwise. Shared by the hooks' context and refresh's continuation prompt. Pure.
 */
export function sessionNextStep(sessions: readonly AgentSessionRecord[]): string | undefined {
  const latest = latestActiveSession(sessions);
  const cutOff = latest?.data.cutOff;
  if (latest && cutOff) {
    const request = latest.data.lastPrompt ? ` ("${oneLine(latest.data.lastPrompt, 160)}")` : '';
    return `The last turn was cut off by ${cutOffCause(cutOff.error)}: check what it left half done and finish the request${request}.`;
  }
  const failure = latest?.data.failures[latest.data.failures.length - 1];
  if (latest && failure && failure.turn >= latest.data.turns) {
    const exit = failure.exitCode === undefined ? 'failed' : `exited ${failure.exitCode}`;
    return `The latest turn ended after \`${oneLine(failure.command, 120)}\` ${exit}. Find out why it fails and fix it (or confirm the failure is expected) before building on that work.`;
  }
  return undefined;
}
