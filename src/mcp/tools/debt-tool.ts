import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { TechDebtData } from '../../ledger/index.js';
import { registerCheckedTool } from '../register-checked-tool.js';
import { okResult } from '../tool-result.js';
import { definedFields } from '../../util/index.js';
import type { WorkspaceState } from '../workspace-state.js';
import { DEFAULT_PAGE_SIZE, pageOutputShape, pageShape, debtRow } from './shared-schemas.js';
import { required } from './task-tool.js';

const inputShape = {
  action: z.enum(['list', 'create', 'update']).describe('list | create | update'),
  debt_id: z.string().optional().describe('Item id (update).'),
  title: z.string().optional().describe('Short title (create).'),
  category: z.string().optional().describe('e.g. bug, design, test, docs.'),
  description: z.string().optional(),
  impact: z.string().optional().describe('What it blocks or breaks.'),
  proposed_solution: z.string().optional(),
  severity: z.enum(['low', 'medium', 'high', 'critical']).optional(),
  task_id: z.string().optional().describe('Related task (filter for list; link for create/update).'),
  status: z.string().optional().describe('open (default for create) | resolved | wontfix; filter for list (default open).'),
  ...pageShape,
};

/** `debt(action)`: known issues and gotchas, so agents stop rediscovering them. */
export function registerDebtTool(server: McpServer, state: WorkspaceState): void {
  registerCheckedTool(
    server,
    'debt',
    {
      title: 'Tech debt in the ledger',
      description: 'List (paginated; open by default), create or update tech debt items: known issues, blockers, gotchas.',
      inputSchema: inputShape,
      outputSchema: { item: debtRow.optional(), items: z.array(debtRow).optional(), ...pageOutputShape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (input) => {
      const { ledger } = await state.require();
      switch (input.action) {
        case 'list': {
          const page = await ledger.listRecords<TechDebtData>('debt', {
            status: input.status ?? 'open',
            taskId: input.task_id,
            limit: input.limit ?? DEFAULT_PAGE_SIZE,
            cursor: input.cursor,
          });
          return okResult({ items: page.items.map((item) => ({ ...item })), next_cursor: page.nextCursor });
        }
        case 'create': {
          const item = await ledger.createRecord<TechDebtData>('debt', {
            status: input.status ?? 'open',
            taskId: input.task_id,
            data: { title: required(input.title, 'title', 'create'), ...dataOf(input) },
          });
          return okResult({ item: { ...item } });
        }
        case 'update': {
          const item = await ledger.updateRecord<TechDebtData>('debt', required(input.debt_id, 'debt_id', 'update'), {
            status: input.status,
            taskId: input.task_id,
            data: dataOf(input),
          });
          return okResult({ item: { ...item } });
        }
      }
    },
  );
}

function dataOf(input: z.infer<z.ZodObject<typeof inputShape>>): Partial<TechDebtData> {
  return definedFields({
    title: input.title,
    category: input.category,
    description: input.description,
    impact: input.impact,
    proposedSolution: input.proposed_solution,
    severity: input.severity,
  });
}
