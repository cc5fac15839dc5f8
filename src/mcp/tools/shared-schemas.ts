import * as z from 'zod';

export { DEFAULT_PAGE_SIZE } from '../../ledger/index.js';

export const pageShape = {
  limit: z.number().int().min(1).max(200).optional().describe('Items per page (1-200, default 50).'),
  cursor: z.string().optional().describe("Opaque cursor from the previous page's next_cursor."),
};

/**
 * A ledger record passed through as a JSON object, keys in snake_case (okResult converts them).
 * Advertised as `additionalProperties: true` (zod's own `{}` reads as "a schema with no keyword" to
 * portability checkers such as the MCP Inspector's); the description names the fields, since a
 * full object schema per row would repeat the ledger's types here.
 */
export function rowSchema(description: string) {
  return z.record(z.string(), z.unknown()).meta({ additionalProperties: true, description });
}

/** Any JSON object, without a description (refresh_context's entries). */
export const recordSchema = z.record(z.string(), z.unknown()).meta({ additionalProperties: true });

export const taskRow = rowSchema(
  'A task: id, title, instructions, intent, acceptance_criteria [{description, check}], status, priority, difficulty, mode, ' +
    'depends_on, result_summary, block_reason, options (the per-task options map, keys as written), ' +
    'links {skills, research, workflow, workflow_phase, agents}, created_at, updated_at, completed_at.',
);

export const dispatchRow = rowSchema(
  'A dispatch (one attempt of a task): id, seq, task_id, attempt, provider, model, mode, status, outcome, exit_code, signal, ' +
    'agent_process {pid, start_time, host}, files_created, files_updated, files_deleted, validation_errors, injected_context, ' +
    'context_type, prompt_digest, prompt_preview, result, tokens_in, tokens_out, claimed_by, reset_at, started_at, finished_at, duration_ms.',
);

export const claimRow = rowSchema('A lease on a task: task_id, owner, lease_until (ms since the epoch).');

export const debtRow = rowSchema(
  'A tech debt item: id, status, task_id, created_at, updated_at, data {title, category, description, impact, proposed_solution, severity}.',
);

export const breakerRow = rowSchema(
  "A provider's circuit breaker: provider, state, until, failure_count, reason, probe_owner, generation, updated_at.",
);

export const pageOutputShape = {
  next_cursor: z.string().optional().describe('Pass as cursor to get the next page; absent on the last page.'),
};
