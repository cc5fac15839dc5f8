import { BatonError } from '../../../errors/index.js';
import { checkTaskId, TASK_STATUSES, type AcceptanceCriterion, type Task } from '../../../ledger/index.js';
import { type CliIO, type CommonOptions, EXIT_OK, withCliLedger, parseChoice, parsePositiveInt, printResult } from '../../context.js';

export interface TaskAddOptions extends CommonOptions {
  title: string;
  instructions?: string;
  intent?: string;
  criterion: string[];
  dependsOn?: string;
  priority?: string;
  mode?: string;
  difficulty?: string;
}

export async function runTaskAdd(io: CliIO, id: string, options: TaskAddOptions): Promise<number> {
  checkTaskId(id);
  const priority = Number(options.priority ?? 0);
  if (!Number.isFinite(priority)) {
    throw new BatonError('INPUT_INVALID', `--priority must be a number, got "${options.priority}"`, {
      details: { field: '--priority', value: options.priority },
    });
  }
  return withCliLedger(io, options, async (ledger) => {
    const task = await ledger.createTask({
      id,
      title: options.title,
      instructions: options.instructions ?? '',
      intent: options.intent ?? '',
      acceptanceCriteria: options.criterion.map(parseCriterion),
      dependsOn: splitList(options.dependsOn),
      priority,
      mode: options.mode,
      difficulty: options.difficulty,
    });
    printResult(io, options, task, () => `Added task ${task.id}: ${task.title}`);
    return EXIT_OK;
  });
}

export async function runTaskList(
  io: CliIO,
  options: CommonOptions & { status?: string; limit: string; cursor?: string },
): Promise<number> {
  const statuses = splitList(options.status).map((status) => parseChoice(status, TASK_STATUSES, '--status'));
  return withCliLedger(io, options, async (ledger) => {
    const page = await ledger.listTasks({
      status: statuses.length > 0 ? statuses : undefined,
      limit: parsePositiveInt(options.limit, '--limit'),
      cursor: options.cursor,
    });
    printResult(io, options, page, () => {
      if (page.items.length === 0) return 'No tasks.';
      const rows = page.items.map((t) => `${t.id}  ${t.status.padEnd(11)} ${t.title}`);
      if (page.nextCursor) rows.push(`(more: --cursor ${page.nextCursor})`);
      return rows.join('\n');
    });
    return EXIT_OK;
  });
}

export async function runTaskShow(io: CliIO, id: string, options: CommonOptions & { dispatches: string }): Promise<number> {
  return withCliLedger(io, options, async (ledger) => {
    const task = await ledger.getTask(id);
    if (!task) throw new BatonError('NOT_FOUND', `No task with id "${id}" (see baton task list)`, { details: { id } });
    const dispatches = await ledger.lastDispatches(id, parsePositiveInt(options.dispatches, '--dispatches'));
    printResult(io, options, { task, dispatches }, () =>
      renderTask(
        task,
        dispatches.map(
          (d) => `  #${d.attempt} ${d.provider} ${d.status}${d.outcome ? ` ${d.outcome}` : ''} ${new Date(d.startedAt).toISOString()}`,
        ),
      ),
    );
    return EXIT_OK;
  });
}

function renderTask(task: Task, dispatchLines: string[]): string {
  const lines = [`${task.id}: ${task.title}`, `  status: ${task.status}  priority: ${task.priority}`];
  if (task.intent) lines.push(`  intent: ${task.intent}`);
  if (task.instructions) lines.push(`  instructions: ${task.instructions}`);
  if (task.dependsOn.length > 0) lines.push(`  depends on: ${task.dependsOn.join(', ')}`);
  for (const c of task.acceptanceCriteria) lines.push(`  - [ ] ${c.description}${c.check ? ` (check: ${c.check})` : ''}`);
  if (task.blockReason) lines.push(`  blocked: ${task.blockReason}`);
  if (task.resultSummary) lines.push(`  result: ${task.resultSummary}`);
  if (dispatchLines.length > 0) lines.push('  dispatches:', ...dispatchLines);
  return lines.join('\n');
}

/** "description :: check command" -> criterion with a check. */
function parseCriterion(text: string): AcceptanceCriterion {
  const at = text.indexOf('::');
  if (at < 0) return { description: text.trim() };
  return { description: text.slice(0, at).trim(), check: text.slice(at + 2).trim() };
}

function splitList(value: string | undefined): string[] {
  return value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}
