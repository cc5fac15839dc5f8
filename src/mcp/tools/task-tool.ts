import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { BatonError } from '../../errors/index.js';
import { checkTaskId, newId, TASK_STATUSES, type TaskPatch } from '../../ledger/index.js';
import { registerCheckedTool } from '../register-checked-tool.js';
import { okResult } from '../tool-result.js';
import { definedFields } from '../../util/index.js';
import type { WorkspaceState } from '../workspace-state.js';
import { DEFAULT_PAGE_SIZE, pageOutputShape, pageShape, taskRow } from './shared-schemas.js';

const inputShape = {
  action: z.enum(['list', 'get', 'create', 'update']).describe('list | get | create | update'),
  task_id: z.string().optional().describe('Task id (get, update; optional for create).'),
  title: z.string().optional().describe('Short title (create, update).'),
  instructions: z.string().optional().describe('What to do (create, update).'),
  intent: z.string().optional().describe('Why: the outcome wanted (create, update).'),
  status: z.enum(TASK_STATUSES).optional().describe('Filter for list; new status for create/update.'),
  priority: z.number().int().optional().describe('Higher runs first (create, update).'),
  difficulty: z.string().optional(),
  mode: z.string().optional().describe('Agent mode, e.g. coder or researcher.'),
  depends_on: z.array(z.string()).optional().describe('Ids of tasks that must complete first.'),
  acceptance_criteria: z
    .array(z.object({ description: z.string(), check: z.string().optional().describe('Shell command; exit 0 means met.') }))
    .optional(),
  result_summary: z.string().optional(),
  block_reason: z.string().optional(),
  workflow: z.string().optional().describe('Workflow name from .agent/workflows/ (without .md).'),
  workflow_phase: z.string().optional().describe('Current phase of that workflow.'),
  ...pageShape,
};

/** `task(action)`: list, read, create and update ledger tasks. */
export function registerTaskTool(server: McpServer, state: WorkspaceState): void {
  registerCheckedTool(
    server,
    'task',
    {
      title: 'Tasks in the ledger',
      description: 'List (paginated, optionally by status), get, create or update tasks of the active workspace.',
      inputSchema: inputShape,
      outputSchema: { task: taskRow.optional(), tasks: z.array(taskRow).optional(), ...pageOutputShape },
      // create/update change the ledger but never delete; repeating an update gives the same task.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (input) => {
      const { ledger } = await state.require();
      switch (input.action) {
        case 'list': {
          const page = await ledger.listTasks({ status: input.status, limit: input.limit ?? DEFAULT_PAGE_SIZE, cursor: input.cursor });
          return okResult({ tasks: page.items, next_cursor: page.nextCursor });
        }
        case 'get': {
          const id = required(input.task_id, 'task_id', 'get');
          const task = await ledger.getTask(id);
          if (!task)
            throw new BatonError('NOT_FOUND', `No task "${id}"; list tasks with task(action: "list").`, {
              details: { field: 'task_id', value: id },
            });
          return okResult({ task: { ...task } });
        }
        case 'create': {
          if (input.task_id !== undefined) checkTaskId(input.task_id, 'task_id');
          const task = await ledger.createTask({
            id: input.task_id ?? newId('t'),
            title: required(input.title, 'title', 'create'),
            ...patchOf(input),
          });
          return okResult({ task: { ...task } });
        }
        case 'update': {
          const id = required(input.task_id, 'task_id', 'update');
          const current = await ledger.getTask(id);
          if (!current) throw new BatonError('NOT_FOUND', `No task "${id}"`, { details: { field: 'task_id', value: id } });
          const patch = patchOf(input);
          if (input.workflow !== undefined || input.workflow_phase !== undefined) {
            patch.links = { ...current.links, ...patch.links };
          }
          const task = await ledger.updateTask(id, patch);
          return okResult({ task: { ...task } });
        }
      }
    },
  );
}

function patchOf(input: z.infer<z.ZodObject<typeof inputShape>>): TaskPatch {
  const patch: TaskPatch = definedFields({
    title: input.title,
    instructions: input.instructions,
    intent: input.intent,
    status: input.status,
    priority: input.priority,
    difficulty: input.difficulty,
    mode: input.mode,
    dependsOn: input.depends_on,
    acceptanceCriteria: input.acceptance_criteria,
    resultSummary: input.result_summary,
    blockReason: input.block_reason,
  });
  if (input.workflow !== undefined || input.workflow_phase !== undefined) {
    patch.links = definedFields({ workflow: input.workflow, workflowPhase: input.workflow_phase });
  }
  return patch;
}

/** Throws INPUT_INVALID naming the missing field and the action that needs it. */
export function required<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined || value === '') {
    throw new BatonError('INPUT_INVALID', `${field} is required for action "${action}"`, { details: { field } });
  }
  return value;
}
