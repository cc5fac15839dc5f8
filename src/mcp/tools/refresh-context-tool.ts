import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { BatonError } from '../../errors/index.js';
import { FORMAT_TOKEN_CAPS, loadRefresh, loadRefreshTasks, MAX_TASKS_PER_REFRESH, REFRESH_FORMATS } from '../../refresh/light.js';
import { type ClientProfile, resultBudget, textBlockFor } from '../client-forwarding.js';
import { registerCheckedTool } from '../register-checked-tool.js';
import { recordSchema } from './shared-schemas.js';
import type { WorkspaceState } from '../workspace-state.js';

const inputShape = {
  task_id: z.string().optional().describe('Task to focus on; defaults to the most recently active task.'),
  task_ids: z
    .array(z.string())
    .min(1)
    .max(MAX_TASKS_PER_REFRESH)
    .optional()
    .describe(
      "Several tasks at once (instead of task_id): they share the format's cap (one context each, the first listed kept longest) plus their dependencies.",
    ),
  format: z
    .enum(REFRESH_FORMATS)
    .optional()
    .describe('minimal (<=1k tokens), standard (<=4k, default), detailed (<=10k), narrative (markdown for people, <=6k).'),
  include_git: z.boolean().optional().describe('Include git status and commits (default true).'),
  include_tech_debt: z.boolean().optional().describe('Include relevant open tech debt (default true).'),
  include_dispatches: z.boolean().optional().describe('Include recent dispatches (default true).'),
  include_task_artifacts: z
    .boolean()
    .optional()
    .describe('Include .agent/tasks/{id}_*/ README, tracking logs, artifacts (default: detailed only).'),
  include_research: z.boolean().optional().describe('Include related research and recon (default: detailed only).'),
  dispatch_limit: z.number().int().min(0).max(100).optional().describe('Recent dispatches to include (default 5; 20 in detailed).'),
  commit_limit: z.number().int().min(0).max(100).optional().describe('Recent commits to include (default 5).'),
  generate_continuation_prompt: z.boolean().optional().describe('Add a self-contained continuation prompt (default true).'),
  since: z
    .string()
    .optional()
    .describe('Only what changed since this ISO time, epoch ms, or snapshot id (snap-…): returns delta {added, updated, removed}.'),
  save_snapshot: z.boolean().optional().describe('Save this context under .baton/snapshots/ (its id is in metadata.snapshot_id).'),
};

// Loose: each format has its own fields (seed 002 §2); the common ones are pinned here.
const outputSchema = z
  .looseObject({
    metadata: z
      .looseObject({
        generated_at: z.string().optional(),
        format: z.string(),
        token_estimate: z.number(),
        warnings: z.array(z.string()),
        redactions: z.number(),
      })
      .meta({ additionalProperties: true }),
    continuation_prompt: z.string().optional(),
    markdown: z.string().optional().describe('The narrative format (its continuation prompt is the "Next Steps" section).'),
    contexts: z.array(recordSchema).optional(),
    dependencies: z.array(recordSchema).optional(),
  })
  .meta({ additionalProperties: true });

/**
 * `refresh_context`: session recovery context and continuation prompt (seed 002 §4), sized for the
 * calling client (`profile`: what it hands its model, client-forwarding.ts) so that what reaches
 * the model stays within the format's cap.
 */
export function registerRefreshContext(
  server: McpServer,
  state: WorkspaceState,
  sessionId: () => string,
  profile: () => ClientProfile,
): void {
  registerCheckedTool(
    server,
    'refresh_context',
    {
      title: 'Refresh session context',
      description:
        'Summarizes where work stands (task, dispatches, git, tech debt, task files) and returns a self-contained continuation prompt. Call after a timeout, a handoff or a task switch, and whenever metadata.warnings says the context is stale.',
      inputSchema: inputShape,
      outputSchema,
      // Writes an audit record, the session's freshness state and, on request, a snapshot file.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (input) => {
      if (input.task_ids && input.task_id !== undefined) {
        throw new BatonError('INPUT_INVALID', 'Pass task_id or task_ids, not both', { details: { field: 'task_ids' } });
      }
      const [{ root, ledger }, { refreshContext }] = await Promise.all([state.require(), loadRefresh()]);
      const turns = state.registry.turns;
      const client = profile();
      const format = input.format ?? 'standard';
      const cap = FORMAT_TOKEN_CAPS[format];
      const common = {
        workspace: root,
        ledger,
        gitCache: state.registry.gitCache,
        resultCache: state.registry.resultCache,
        renderWorker: state.registry.renderWorker,
        yieldTurn: turns ? () => turns.take() : undefined,
        sessionId: sessionId(),
        format,
        includeGit: input.include_git,
        includeTechDebt: input.include_tech_debt,
        includeDispatches: input.include_dispatches,
        includeTaskArtifacts: input.include_task_artifacts,
        includeResearch: input.include_research,
        dispatchLimit: input.dispatch_limit,
        commitLimit: input.commit_limit,
        generateContinuationPrompt: input.generate_continuation_prompt,
        since: input.since,
        saveSnapshot: input.save_snapshot,
      };
      // One render, fitted by the renderer to what this client hands its model: the cap less its
      // wrapper (halved when it forwards both forms), and its byte limit (Copilot CLI) when it has one.
      const fitting = {
        maxTokens: resultBudget(cap, client),
        sent: client.maxResultBytes ? { maxBytes: client.maxResultBytes } : undefined,
      };
      let structured: Record<string, unknown>;
      let narrative: string;
      if (input.task_ids) {
        const { refreshTasks } = await loadRefreshTasks();
        const result = await refreshTasks(input.task_ids, { ...common, ...fitting });
        ({ structured, text: narrative } = result);
      } else {
        const result = await refreshContext({ ...common, ...fitting, taskId: input.task_id });
        // Exactly what the renderer measured against the cap: the context (its continuation prompt
        // included once: a field of the JSON formats, the "Next Steps" of the narrative) and metadata.
        structured = { ...result.context, metadata: { ...result.metadata } };
        narrative = result.text;
      }
      const text = textBlockFor(client, structured, format === 'narrative' ? narrative : undefined);
      // Every session waiting on one cold render resumes at once: their results are encoded and
      // written in bounded slices, not all in the turn the render came back in.
      await turns?.take();
      // Sent as built: snake_case and redacted already, its tokens counted; okResult would change
      // what token_estimate describes.
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  );
}
