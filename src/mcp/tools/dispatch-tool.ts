import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { BatonError } from '../../errors/index.js';
import { type DispatchPatch, OUTCOME_KINDS } from '../../ledger/index.js';
import { registerCheckedTool } from '../register-checked-tool.js';
import { okResult } from '../tool-result.js';
import type { WorkspaceState } from '../workspace-state.js';
import { DEFAULT_PAGE_SIZE, pageOutputShape, pageShape, claimRow, dispatchRow } from './shared-schemas.js';
import { required } from './task-tool.js';

/** @default 1_800_000: a claim without an explicit lease lasts 30 minutes. */
export const DEFAULT_LEASE_MS = 30 * 60 * 1000;

const inputShape = {
  action: z.enum(['list', 'status', 'create', 'claim', 'complete']).describe('list | status | create | claim | complete'),
  dispatch_id: z.string().optional().describe('Dispatch id (status, claim, complete).'),
  task_id: z.string().optional().describe('Task the dispatch belongs to (list filter, status, create, claim).'),
  provider: z.string().optional().describe('Agent or provider that runs it, e.g. claude (create).'),
  model: z.string().optional(),
  mode: z.string().optional(),
  attempt: z.number().int().min(1).optional().describe("Attempt number (create; default: next after the task's last)."),
  prompt_preview: z.string().max(2000).optional().describe('Start of the prompt sent (create).'),
  status: z.enum(['running', 'completed', 'failed', 'interrupted']).optional().describe('Filter for list.'),
  owner: z.string().optional().describe('Who claims the task (claim; complete releases it).'),
  lease_ms: z.number().int().min(1000).optional().describe('Claim lease in ms (default 30 minutes).'),
  success: z.boolean().optional().describe('complete: true -> completed, false -> failed (default true).'),
  outcome: z.enum(OUTCOME_KINDS).optional().describe('complete: outcome kind.'),
  result: z.string().max(20_000).optional().describe('complete: short result or error text.'),
  ...pageShape,
};

/** `dispatch(action)`: attempts of tasks (list, status, create, claim, complete). */
export function registerDispatchTool(server: McpServer, state: WorkspaceState, now: () => number = Date.now): void {
  registerCheckedTool(
    server,
    'dispatch',
    {
      title: 'Dispatches in the ledger',
      description:
        "Attempts of tasks: list (paginated), status (one dispatch, a task's latest, or the newest overall), create, claim a task with a lease, complete with a result.",
      inputSchema: inputShape,
      outputSchema: {
        dispatch: dispatchRow.optional(),
        dispatches: z.array(dispatchRow).optional(),
        claim: claimRow.optional(),
        claimed: z.boolean().optional(),
        total: z.number().optional(),
        ...pageOutputShape,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (input) => {
      const { ledger } = await state.require();
      const limit = input.limit ?? DEFAULT_PAGE_SIZE;
      switch (input.action) {
        case 'list': {
          const page = await ledger.listDispatches({ taskId: input.task_id, status: input.status, limit, cursor: input.cursor });
          return okResult({ dispatches: page.items, next_cursor: page.nextCursor });
        }
        case 'status': {
          if (input.dispatch_id) {
            const dispatch = await ledger.getDispatch(input.dispatch_id);
            if (!dispatch) throw notFound(input.dispatch_id);
            const claim = await ledger.getClaim(dispatch.taskId);
            return okResult({ dispatch: { ...dispatch }, claim: claim ? { ...claim } : undefined });
          }
          const [dispatches, total, claim] = await Promise.all([
            input.task_id ? ledger.lastDispatches(input.task_id, Math.min(limit, 20)) : ledger.recentDispatches(Math.min(limit, 20)),
            ledger.countDispatches(),
            input.task_id ? ledger.getClaim(input.task_id) : Promise.resolve(undefined),
          ]);
          return okResult({ dispatches, total, claim: claim ? { ...claim } : undefined });
        }
        case 'create': {
          const taskId = required(input.task_id, 'task_id', 'create');
          if (!(await ledger.getTask(taskId)))
            throw new BatonError('NOT_FOUND', `No task "${taskId}"`, { details: { field: 'task_id', value: taskId } });
          const fields = {
            taskId,
            provider: required(input.provider, 'provider', 'create'),
            model: input.model,
            mode: input.mode,
            promptPreview: input.prompt_preview,
            status: 'running' as const,
            startedAt: now(),
          };
          // Without an explicit attempt the ledger allocates the next one atomically, so
          // concurrent creates never share a number.
          const dispatch =
            input.attempt === undefined
              ? await ledger.appendNextAttempt(fields)
              : await ledger.appendDispatch({ ...fields, attempt: input.attempt });
          return okResult({ dispatch: { ...dispatch } });
        }
        case 'claim': {
          const owner = required(input.owner, 'owner', 'claim');
          let taskId = input.task_id;
          if (!taskId && input.dispatch_id) taskId = (await ledger.getDispatch(input.dispatch_id))?.taskId;
          taskId = required(taskId, 'task_id', 'claim');
          const claim = await ledger.claimTask(taskId, owner, input.lease_ms ?? DEFAULT_LEASE_MS);
          if (claim.ok && input.dispatch_id) await ledger.updateDispatch(input.dispatch_id, { claimedBy: owner });
          return okResult({ claimed: claim.ok, claim: { ...(claim.ok ? claim.claim : claim.holder) } });
        }
        case 'complete': {
          const id = required(input.dispatch_id, 'dispatch_id', 'complete');
          const existing = await ledger.getDispatch(id);
          if (!existing) throw notFound(id);
          const finishedAt = now();
          const success = input.success ?? true;
          const patch: DispatchPatch = {
            status: success ? 'completed' : 'failed',
            outcome: input.outcome ?? (success ? 'ok' : 'agent_error'),
            result: input.result,
            finishedAt,
            durationMs: finishedAt - existing.startedAt,
          };
          const dispatch = await ledger.updateDispatch(id, patch);
          const owner = input.owner ?? existing.claimedBy;
          if (owner) await ledger.releaseTask(existing.taskId, owner);
          return okResult({ dispatch: { ...dispatch } });
        }
      }
    },
  );
}

function notFound(id: string): BatonError {
  return new BatonError('NOT_FOUND', `No dispatch "${id}"; list them with dispatch(action: "list").`, {
    details: { field: 'dispatch_id', value: id },
  });
}
