import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE } from '../redact/fake-secrets.js';
import { makeRepo, type Loose } from '../refresh/helpers.js';
import { batonCommand, ROOT } from './helpers/launch.js';

let client: Client;
let transport: StdioClientTransport;
let repo: ReturnType<typeof makeRepo>;
let stderr = '';

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Loose };
const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;

beforeAll(async () => {
  repo = makeRepo({ 'src/app.ts': 'export {};\n' });
  const { command, args } = batonCommand();
  transport = new StdioClientTransport({
    command,
    args: [...args, 'mcp'],
    cwd: ROOT,
    env: { ...process.env, BATON_LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  client = new Client({ name: 'baton-test', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  repo?.cleanup();
});

describe('baton mcp over stdio (real SDK client, child process)', () => {
  it('lists every tool with input/output schemas and all four annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(['context_snapshots', 'debt', 'dispatch', 'prep_orchestrator', 'refresh_context', 'task', 'workspace_handshake']);
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.title, tool.name).toBeTruthy();
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      }
    }
    const refresh = tools.find((t) => t.name === 'refresh_context');
    expect(Object.keys(refresh?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'task_id',
        'format',
        'include_git',
        'include_tech_debt',
        'include_dispatches',
        'include_task_artifacts',
        'include_research',
        'dispatch_limit',
        'commit_limit',
        'generate_continuation_prompt',
        'task_ids',
        'since',
        'save_snapshot',
      ]),
    );
    expect(tools.find((t) => t.name === 'prep_orchestrator')?.annotations?.readOnlyHint).toBe(true);
  });

  it('answers WORKSPACE_NOT_SET in an isError result before the handshake', async () => {
    const result = await call('refresh_context');
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      'Error WORKSPACE_NOT_SET: No active workspace. Call workspace_handshake first.\nNext step: Call workspace_handshake with project_root set to the absolute path of your project, then call this tool again.',
    );
  });

  it('runs a session: handshake, task, dispatch, debt, then refresh_context in both forms', async () => {
    const hs = await call('workspace_handshake', { project_root: repo.dir });
    expect(hs.isError).toBeFalsy();
    expect(hs.structuredContent).toMatchObject({ workspace: repo.dir, git: true, ledger: { backend: 'sqlite' } });

    await call('task', {
      action: 'create',
      task_id: 'csv',
      title: 'Add CSV export',
      status: 'in_progress',
      acceptance_criteria: [{ description: 'CSV tests pass', check: 'npm test' }],
    });
    const created = await call('dispatch', { action: 'create', task_id: 'csv', provider: 'claude' });
    const dispatchId = created.structuredContent?.dispatch.id;
    const claim = await call('dispatch', { action: 'claim', dispatch_id: dispatchId, owner: 'agent-1' });
    expect(claim.structuredContent).toMatchObject({ claimed: true, claim: { owner: 'agent-1', task_id: 'csv' } });
    await call('dispatch', {
      action: 'complete',
      dispatch_id: dispatchId,
      success: false,
      outcome: 'validation_failed',
      result: `tests failed; token=${FAKE.password}`,
    });
    await call('debt', { action: 'create', title: 'CSV lib is slow', severity: 'medium', task_id: 'csv' });
    writeFileSync(path.join(repo.dir, 'src/app.ts'), 'export const csv = true;\n');

    const result = await call('refresh_context', { format: 'standard' });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent ?? {};
    expect(structured.current_task.id).toBe('csv');
    expect(structured.recent_dispatches[0]).toMatchObject({ id: dispatchId, status: 'failed', outcome: 'validation_failed' });
    // The untracked .baton/ folder holding the ledger is Baton's, not work in progress.
    expect(structured.git_status.uncommitted_changes).toBe(1);
    expect(structured.modified_files).toContain('.M src/app.ts +1 -1');
    expect(structured.metadata.token_estimate).toBeLessThanOrEqual(4000);
    expect(structured.continuation_prompt).toContain('after a failed attempt');
    const text = result.content[0]?.text ?? '';
    expect(JSON.parse(text).metadata.format).toBe('standard');
    expect(text).not.toContain(FAKE.password);
    // The dispatch's result reached the ledger masked (every write is), so the refresh shows the marker.
    expect(text).toContain('token=[REDACTED:assignment]');
  });

  it('paginates long lists with a cursor', async () => {
    for (let i = 0; i < 5; i += 1) await call('task', { action: 'create', task_id: `p${i}`, title: `Page task ${i}` });
    const first = await call('task', { action: 'list', limit: 2 });
    expect(first.structuredContent?.tasks).toHaveLength(2);
    const cursor = first.structuredContent?.next_cursor;
    expect(typeof cursor).toBe('string');
    const second = await call('task', { action: 'list', limit: 2, cursor });
    const ids = [...(first.structuredContent?.tasks ?? []), ...(second.structuredContent?.tasks ?? [])].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(4);
  });

  it('returns the orchestrator overview and multi-task contexts', async () => {
    const prep = await call('prep_orchestrator', {});
    expect(prep.structuredContent?.counts.in_progress).toBe(1);
    expect(prep.structuredContent?.open_debt[0].data.title).toBe('CSV lib is slow');
    const multi = await call('refresh_context', { task_ids: ['csv', 'p0'], format: 'minimal' });
    expect(multi.structuredContent?.contexts.map((c: { task_id: string }) => c.task_id)).toEqual(['csv', 'p0']);
  });

  it('reports bad input with the field named, as an isError result', async () => {
    const missing = await call('task', { action: 'get' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toMatch(/^Error INPUT_INVALID: task_id is required for action "get"\nField: task_id/);
    const unknown = await call('task', { action: 'get', task_id: 'nope' });
    expect(unknown.content[0]?.text).toMatch(/^Error NOT_FOUND: /);
  });

  it('keeps stdout for the protocol: logs only reach stderr', () => {
    // Any stray stdout line would have broken the JSON-RPC stream and failed the calls above.
    expect(stderr).not.toContain('"jsonrpc"');
  });
});
