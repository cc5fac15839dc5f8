import type { Ledger, Task, TaskStatus } from '../ledger/index.js';

/** @default 20: task contexts `resources/list` names besides `baton://context/current`. */
export const DEFAULT_LISTED_CONTEXTS = 20;

/** Tasks still to be finished: the ones whose context an agent may want to resume. */
const OPEN_STATUSES: readonly TaskStatus[] = ['in_progress', 'blocked', 'pending'];
/** Open tasks read per listing (pages of 200, newest first): the listing stays cheap on a large plan. */
const SCAN_LIMIT = 1_000;
const SCAN_PAGE = 200;
/** Newest dispatches read: tasks worked on lately are listed even beyond the scan limit. */
const RECENT_DISPATCHES = 100;

/**
 * The `limit` open tasks (in progress, blocked or pending) most recently active, newest first:
 * a task's activity is its last update or its newest dispatch among the ledger's latest ones.
 * Reads at most SCAN_LIMIT open tasks, newest created first, plus the tasks of the
 * RECENT_DISPATCHES newest dispatches, so on a ledger with more open tasks than that, an old task
 * nobody touched lately may be left out; new ones and recently worked ones never are.
 */
export async function recentOpenTasks(ledger: Ledger, limit = DEFAULT_LISTED_CONTEXTS): Promise<Task[]> {
  const [scanned, dispatches] = await Promise.all([scanOpenTasks(ledger), ledger.recentDispatches(RECENT_DISPATCHES)]);
  // Each task's newest dispatch time (start or finish) among those dispatches.
  const lastDispatch = new Map<string, number>();
  for (const dispatch of dispatches) {
    const at = Math.max(dispatch.startedAt, dispatch.finishedAt ?? 0);
    lastDispatch.set(dispatch.taskId, Math.max(lastDispatch.get(dispatch.taskId) ?? 0, at));
  }
  const tasks = new Map(scanned.map((task) => [task.id, task]));
  const unseen = [...lastDispatch.keys()].filter((id) => !tasks.has(id));
  if (unseen.length > 0) {
    for (const task of await ledger.getTasks(unseen)) if (task && OPEN_STATUSES.includes(task.status)) tasks.set(task.id, task);
  }
  const activity = (task: Task) => Math.max(task.updatedAt, lastDispatch.get(task.id) ?? 0);
  return [...tasks.values()].sort((a, b) => activity(b) - activity(a) || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

async function scanOpenTasks(ledger: Ledger): Promise<Task[]> {
  const tasks: Task[] = [];
  let cursor: string | undefined;
  do {
    const page = await ledger.listTasks({ status: [...OPEN_STATUSES], limit: SCAN_PAGE, cursor, order: 'newest' });
    tasks.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && tasks.length < SCAN_LIMIT);
  return tasks;
}
