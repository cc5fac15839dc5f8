import { BatonError } from '../errors/index.js';
import {
  type AgentSessionRecord,
  type Dispatch,
  isRecordCapable,
  listAgentSessions,
  type LedgerCore,
  type LedgerRecord,
  type LedgerRecords,
  type ReconData,
  type ResearchData,
  type Task,
  type TechDebtData,
} from '../ledger/index.js';
import type { ContextSnapshot } from './types.js';

export interface ReadLedgerContextOptions {
  taskId?: string;
  dispatchLimit: number;
  includeTechDebt: boolean;
  includeDispatches: boolean;
  includeResearch: boolean;
  /** The workspace whose agent CLI sessions to read (none without it). */
  workspace?: string;
}

/** @default 5: agent CLI sessions a refresh shows. */
export const AGENT_SESSION_LIMIT = 5;

export type LedgerContext = Pick<
  ContextSnapshot,
  'task' | 'dependencies' | 'activeTasks' | 'dispatches' | 'agentSessions' | 'debt' | 'research' | 'recon'
>;

const ACTIVE_PAGE = 50;

/**
 * Reads what the ledger knows about a task (or, without one, the most recently active task):
 * the task, its dependencies, its last dispatches, open tech debt, research and recon. Queries run
 * in parallel and touch bounded pages only, so a 10,000-task ledger costs the same as a small one.
 * A ledger without the records capability has no debt, research or recon to read. Throws NOT_FOUND
 * when an explicit task id is unknown.
 */
export async function readLedgerContext(ledger: LedgerCore, options: ReadLedgerContextOptions): Promise<LedgerContext> {
  const [active, recent] = await Promise.all([
    ledger.listTasks({ status: ['in_progress', 'blocked'], limit: ACTIVE_PAGE }),
    ledger.recentDispatches(1),
  ]);
  const task = options.taskId ? await ledger.getTask(options.taskId) : await pickCurrentTask(ledger, active.items, recent[0]);
  if (options.taskId && !task) {
    throw new BatonError('NOT_FOUND', `No task "${options.taskId}" in the ledger; list tasks with task(action: "list").`, {
      details: { field: 'task_id', value: options.taskId },
    });
  }
  const records = isRecordCapable(ledger) ? ledger : undefined;
  const [dispatches, debt, research, recon, dependencies, agentSessions] = await Promise.all([
    options.includeDispatches
      ? task
        ? ledger.lastDispatches(task.id, options.dispatchLimit)
        : ledger.recentDispatches(options.dispatchLimit)
      : Promise.resolve([] as Dispatch[]),
    records && options.includeTechDebt ? readDebt(records, task?.id) : Promise.resolve([] as Array<LedgerRecord<TechDebtData>>),
    records && options.includeResearch ? readResearch(records, task) : Promise.resolve([] as Array<LedgerRecord<ResearchData>>),
    records && options.includeResearch
      ? records.listRecords<ReconData>('recon', { limit: 5 }).then((page) => page.items)
      : Promise.resolve([] as Array<LedgerRecord<ReconData>>),
    task ? Promise.all(task.dependsOn.map((id) => ledger.getTask(id))) : Promise.resolve([]),
    records && options.workspace !== undefined
      ? listAgentSessions(records, { workspace: options.workspace, limit: AGENT_SESSION_LIMIT })
      : Promise.resolve([] as AgentSessionRecord[]),
  ]);
  return {
    task,
    dependencies: dependencies
      .filter((dep): dep is Task => dep !== undefined)
      .map((dep) => ({ id: dep.id, title: dep.title, status: dep.status })),
    // The ledger pages tasks oldest first; the newest of that first page is the best cheap view.
    activeTasks: [...active.items]
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, 10)
      .map((t) => ({ id: t.id, title: t.title, status: t.status, priority: t.priority, updatedAt: t.updatedAt })),
    dispatches,
    agentSessions,
    debt: relevantDebt(debt, task?.id),
    research,
    recon,
  };
}

/** The task of the newest dispatch when it is still open, else the newest in-progress task. */
async function pickCurrentTask(ledger: LedgerCore, active: Task[], latest: Dispatch | undefined): Promise<Task | undefined> {
  if (latest) {
    const task = await ledger.getTask(latest.taskId);
    if (task && task.status !== 'completed' && task.status !== 'archived') return task;
  }
  const inProgress = active.filter((t) => t.status === 'in_progress').sort((a, b) => b.updatedAt - a.updatedAt);
  if (inProgress[0]) return inProgress[0];
  const blocked = [...active].sort((a, b) => b.updatedAt - a.updatedAt);
  if (blocked[0]) return blocked[0];
  const pending = await ledger.listTasks({ status: 'pending', limit: ACTIVE_PAGE });
  return [...pending.items].sort((a, b) => b.priority - a.priority || a.createdAt - b.createdAt)[0];
}

/** Open debt items read at most (filtered to the relevant ones afterwards). */
const DEBT_PAGE = 50;

/** The task's own open debt (however old) plus the newest open items of the project. */
async function readDebt(ledger: LedgerRecords, taskId: string | undefined): Promise<Array<LedgerRecord<TechDebtData>>> {
  const [own, recent] = await Promise.all([
    taskId ? ledger.listRecords<TechDebtData>('debt', { status: 'open', taskId, limit: 10 }) : Promise.resolve({ items: [] }),
    ledger.listRecords<TechDebtData>('debt', { status: 'open', limit: DEBT_PAGE }),
  ]);
  const seen = new Set(own.items.map((item) => item.id));
  return [...own.items, ...recent.items.filter((item) => !seen.has(item.id))];
}

async function readResearch(ledger: LedgerRecords, task: Task | undefined): Promise<Array<LedgerRecord<ResearchData>>> {
  const linked = task?.links.research ?? [];
  const [byId, recent] = await Promise.all([
    Promise.all(linked.map((id) => ledger.getRecord<ResearchData>('research', id))),
    ledger.listRecords<ResearchData>('research', task ? { taskId: task.id, limit: 5 } : { limit: 5 }),
  ]);
  const seen = new Set<string>();
  const out: Array<LedgerRecord<ResearchData>> = [];
  for (const record of [...byId, ...recent.items]) {
    if (!record || seen.has(record.id)) continue;
    seen.add(record.id);
    out.push(record);
  }
  return out;
}

const SEVERITY_RANK: Record<string, number> = { critical: 4, high: 3, medium: 2, low: 1 };

/** §3.2: debt of this task first, then high-impact items; never the whole list. */
function relevantDebt(items: Array<LedgerRecord<TechDebtData>>, taskId: string | undefined) {
  const rank = (item: LedgerRecord<TechDebtData>) =>
    (item.taskId !== undefined && item.taskId === taskId ? 10 : 0) + (SEVERITY_RANK[item.data.severity ?? ''] ?? 0);
  return [...items].sort((a, b) => rank(b) - rank(a) || b.updatedAt - a.updatedAt).slice(0, 10);
}
