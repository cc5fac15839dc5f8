import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { compareSnapshots } from '../../refresh/snapshot-delta.js';
import { listSnapshots, loadSnapshot } from '../../refresh/snapshot-store.js';
import { registerCheckedTool } from '../register-checked-tool.js';
import { guarded, okResult } from '../tool-result.js';
import type { WorkspaceState } from '../workspace-state.js';
import { DEFAULT_PAGE_SIZE, pageOutputShape, pageShape, recordSchema } from './shared-schemas.js';
import { required } from './task-tool.js';

// Module-level, so every session's registration reuses its built schemas (register-checked-tool.ts).
const inputShape = {
  action: z.enum(['list', 'compare']),
  task_id: z.string().optional().describe('Filter for list.'),
  from: z.string().optional().describe('compare: the older snapshot id.'),
  to: z.string().optional().describe('compare: the newer snapshot id.'),
  ...pageShape,
};

/** `context_snapshots(action)`: list saved refresh snapshots, or compare two (seed 002 §8.4). */
export function registerContextSnapshots(server: McpServer, state: WorkspaceState): void {
  registerCheckedTool(
    server,
    'context_snapshots',
    {
      title: 'Saved context snapshots',
      description:
        'list: snapshots saved by refresh_context(save_snapshot: true), newest first. compare: what changed between two of them.',
      inputSchema: inputShape,
      outputSchema: {
        snapshots: z.array(recordSchema).optional(),
        delta: recordSchema.optional(),
        ...pageOutputShape,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(async () => {
        const { root, ledger } = await state.require();
        if (input.action === 'list') {
          const page = await listSnapshots(ledger, {
            taskId: input.task_id,
            limit: input.limit ?? DEFAULT_PAGE_SIZE,
            cursor: input.cursor,
          });
          return okResult({ snapshots: page.items.map((item) => ({ ...item })), next_cursor: page.nextCursor });
        }
        const from = required(input.from, 'from', 'compare');
        const to = required(input.to, 'to', 'compare');
        const [before, after] = await Promise.all([loadSnapshot(root, ledger, from), loadSnapshot(root, ledger, to)]);
        return okResult({ delta: { ...compareSnapshots(before, after, from, from) } });
      }),
  );
}
