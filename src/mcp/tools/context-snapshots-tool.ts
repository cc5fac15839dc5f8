import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { compareSnapshots, type DeltaEntry, listSnapshots, loadSnapshot } from '../../refresh/light.js';
import { toSnakeCase } from '../../util/index.js';
import { registerCheckedTool } from '../register-checked-tool.js';
import { okResult } from '../tool-result.js';
import type { WorkspaceState } from '../workspace-state.js';
import { DEFAULT_PAGE_SIZE, pageOutputShape, pageShape, rowSchema } from './shared-schemas.js';
import { required } from './task-tool.js';

// Module-level, so every session's registration reuses its built schemas (register-checked-tool.ts).
const inputShape = {
  action: z.enum(['list', 'compare']),
  task_id: z.string().optional().describe('Filter for list.'),
  from: z.string().optional().describe('compare: the older snapshot id.'),
  to: z.string().optional().describe('compare: the newer snapshot id.'),
  ...pageShape,
};

const snapshotRow = rowSchema(
  "A saved snapshot's index record: id, status, task_id, created_at, updated_at, data {file, workspace, generated_at, format, tokens, head}.",
);
const deltaSchema = rowSchema(
  'What changed from the older snapshot to the newer: since, base, added, updated, removed; each entry {key, value, changed} ' +
    '(changed: the snake_case names of the fields whose value changed).',
);

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
        snapshots: z.array(snapshotRow).optional(),
        delta: deltaSchema.optional(),
        ...pageOutputShape,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
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
      const delta = compareSnapshots(before, after, from, from);
      // `changed` lists field names as values; spelled like the keys okResult converts.
      const wireNames = (entry: DeltaEntry) => (entry.changed ? { ...entry, changed: entry.changed.map(toSnakeCase) } : { ...entry });
      return okResult({ delta: { ...delta, updated: delta.updated.map(wireNames) } });
    },
  );
}
