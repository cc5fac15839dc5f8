import type { Dispatch } from '../ledger/index.js';
import type { ContextSnapshot } from './types.js';

/** Which §3.3 template the continuation prompt uses. */
export type ContinuationState = 'no_task' | 'completed' | 'just_started' | 'blocked' | 'failed_attempt' | 'resumed_after_break';

/**
 * Decides the state of the focused task. A completed (or archived) task is done: nothing to resume,
 * whatever its history. Then blocked wins (a blocked task, an unfinished dependency or
 * a high-impact debt item on the task), then a failed or interrupted last dispatch, then a task with
 * no trace of work yet; anything else is a resumption after a break.
 */
export function detectContinuationState(snapshot: ContextSnapshot): ContinuationState {
  const task = snapshot.task;
  if (!task) return 'no_task';
  if (task.status === 'completed' || task.status === 'archived') return 'completed';
  if (blockers(snapshot).length > 0) return 'blocked';
  const last = snapshot.dispatches[0];
  if (last && isFailure(last)) return 'failed_attempt';
  const hasTrace =
    snapshot.dispatches.length > 0 || (snapshot.artifacts?.trackingLogs.length ?? 0) > 0 || (snapshot.artifacts?.artifacts.length ?? 0) > 0;
  if (!hasTrace && task.status !== 'in_progress') return 'just_started';
  return 'resumed_after_break';
}

/** Human-readable blockers of the focused task, most important first. */
export function blockers(snapshot: ContextSnapshot): string[] {
  const task = snapshot.task;
  if (!task) return [];
  const out: string[] = [];
  if (task.status === 'blocked') out.push(`Task is blocked: ${task.blockReason ?? 'no reason recorded'}`);
  for (const dep of snapshot.dependencies) {
    if (dep.status !== 'completed' && dep.status !== 'archived') {
      out.push(`Depends on task ${dep.id} ("${dep.title}"), which is ${dep.status}`);
    }
  }
  for (const item of snapshot.debt) {
    if (item.taskId === task.id && (item.data.severity === 'high' || item.data.severity === 'critical')) {
      out.push(`Tech debt ${item.id} (${item.data.severity}): ${item.data.title}${item.data.impact ? ` — ${item.data.impact}` : ''}`);
    }
  }
  return out;
}

export function isFailure(dispatch: Dispatch): boolean {
  return dispatch.status === 'failed' || dispatch.status === 'interrupted' || (dispatch.outcome !== undefined && dispatch.outcome !== 'ok');
}

/** "3 hours ago"-style age; pure. */
export function formatAge(ms: number): string {
  const minutes = Math.round(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `${Math.round(hours / 24)} days ago`;
}
