import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { registerCheckedTool } from '../register-checked-tool.js';
import { okResult } from '../tool-result.js';
import type { WorkspaceState } from '../workspace-state.js';
import { DEFAULT_PAGE_SIZE, pageOutputShape, pageShape, breakerRow, debtRow, rowSchema } from './shared-schemas.js';

/** `prep_orchestrator`: all active tasks, recent dispatches and open debt for an orchestrator's start. */
export function registerPrepOrchestrator(server: McpServer, state: WorkspaceState): void {
  registerCheckedTool(
    server,
    'prep_orchestrator',
    {
      title: 'Orchestrator overview',
      description:
        'Everything an orchestrator needs at session start: task counts, active tasks (in progress, blocked, pending; paginated), the 10 newest dispatches, open tech debt and provider breakers.',
      inputSchema: pageShape,
      outputSchema: {
        counts: z.record(z.string(), z.number()),
        active_tasks: z.array(rowSchema('An active task, in brief: id, title, status, priority, depends_on, updated_at.')),
        recent_dispatches: z.array(rowSchema('A recent dispatch, in brief: id, task_id, attempt, provider, status, outcome, started_at.')),
        open_debt: z.array(debtRow),
        breakers: z.array(breakerRow),
        ...pageOutputShape,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      const { ledger } = await state.require();
      const [counts, active, dispatches, debt, breakers] = await Promise.all([
        ledger.countTasksByStatus(),
        ledger.listTasks({
          status: ['in_progress', 'blocked', 'pending'],
          limit: input.limit ?? DEFAULT_PAGE_SIZE,
          cursor: input.cursor,
        }),
        ledger.recentDispatches(10),
        ledger.listRecords('debt', { status: 'open', limit: 20 }),
        ledger.listBreakers(),
      ]);
      return okResult({
        counts,
        // okResult spells the keys snake_case (dependsOn -> depends_on).
        active_tasks: active.items.map((t) => pick(t, ['id', 'title', 'status', 'priority', 'dependsOn', 'updatedAt'])),
        recent_dispatches: dispatches.map((d) => pick(d, ['id', 'taskId', 'attempt', 'provider', 'status', 'outcome', 'startedAt'])),
        open_debt: debt.items.map((item) => ({ ...item })),
        breakers: breakers.map((b) => ({ ...b })),
        next_cursor: active.nextCursor,
      });
    },
  );
}

/** The named fields of `item`, in that order. */
function pick<T extends object, K extends keyof T>(item: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, item[key]])) as Pick<T, K>;
}
