import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { locateGit } from '../../refresh/light.js';
import { registerCheckedTool } from '../register-checked-tool.js';
import { okResult } from '../tool-result.js';
import type { WorkspaceState } from '../workspace-state.js';

// Module-level, so every session's registration reuses its built schemas (register-checked-tool.ts).
const inputShape = {
  project_root: z.string().min(1).describe('Absolute path of the project to work in.'),
};

/** `workspace_handshake(project_root)`: activates a workspace (its ledger and files) for this session. */
export function registerWorkspaceHandshake(server: McpServer, state: WorkspaceState): void {
  registerCheckedTool(
    server,
    'workspace_handshake',
    {
      title: 'Set the active workspace',
      description:
        'Call first in every session. Sets the project root whose ledger (.baton/agent.db or BATON_LEDGER), git repository and .agent/ folder the other Baton tools use.',
      inputSchema: inputShape,
      outputSchema: {
        workspace: z.string(),
        ledger: z.object({
          backend: z.string().describe('sqlite, redis or memory; "unavailable" when the ledger could not be opened.'),
          tried: z.string().optional().describe('The backend that could not be opened.'),
          location: z.string(),
          error: z.string().optional(),
        }),
        git: z.boolean().describe('Whether the workspace is inside a git repository.'),
        tasks: z.record(z.string(), z.number()).describe('Task counts by status.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ project_root }) => {
      const { root, ledger, ledgerError } = await state.setRoot(project_root);
      // A ledger that cannot be opened still leaves git and files usable (refresh degrades).
      const tasks = await ledger.countTasksByStatus().catch(() => ({}));
      const git = locateGit(root);
      return okResult({
        workspace: root,
        ledger: ledgerError
          ? { backend: 'unavailable', tried: ledger.backend, location: ledger.location, error: ledgerError }
          : { backend: ledger.backend, location: ledger.location },
        git: git !== undefined,
        tasks,
      });
    },
  );
}
