import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { createBatonMcpServer, WorkspaceRegistry } from '../../src/mcp/index.js';
import { type Loose, makeRepo } from '../refresh/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * Every object key with a capital letter in a JSON value, with its path. A task's `options` map
 * holds the user's own keys (passed through as written, docs/api.md), so its inside is skipped.
 */
function camelKeys(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => camelKeys(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(/^[a-z][a-z0-9]*[A-Z]/.test(key) ? [`${at}.${key}`] : []),
    ...(key === 'options' ? [] : camelKeys(inner, `${at}.${key}`)),
  ]);
}

/** A ledger with one of everything a tool returns: tasks, dispatches, a claim, debt, a breaker. */
async function filledLedger(): Promise<MemoryLedger> {
  const ledger = new MemoryLedger();
  await ledger.createTask({ id: 'dep', title: 'Dependency', status: 'completed', resultSummary: 'done' });
  await ledger.createTask({
    id: 'csv',
    title: 'CSV export',
    status: 'in_progress',
    dependsOn: ['dep'],
    acceptanceCriteria: [{ description: 'exports', check: 'true' }],
    options: { maxTurns: 3 },
    links: { workflow: 'feature', workflowPhase: 'build', skills: ['csv'] },
    blockReason: 'none',
  });
  await ledger.appendDispatch({
    taskId: 'csv',
    attempt: 1,
    provider: 'claude',
    status: 'failed',
    outcome: 'agent_error',
    filesCreated: ['a.ts'],
    validationErrors: ['lint'],
    agentProcess: { pid: 1, startTime: '1', host: 'h' },
    promptPreview: 'Do it',
    startedAt: 1,
    finishedAt: 2,
    durationMs: 1,
    tokensIn: 10,
  });
  await ledger.createRecord('debt', {
    status: 'open',
    taskId: 'csv',
    data: { title: 'Flaky', proposedSolution: 'retry', severity: 'low' },
  });
  await ledger.compareAndSetBreaker('claude', 0, { state: 'open', until: Date.now() + 60_000, failureCount: 3, probeOwner: 'x' });
  return ledger;
}

describe('MCP tool results on the wire', () => {
  it('use snake_case keys in structuredContent and in the JSON text, for every tool on a filled ledger', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const ledger = await filledLedger();
    const { server } = createBatonMcpServer({ registry: new WorkspaceRegistry(async () => ledger) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'wire-case', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());

    const calls: Array<[string, Record<string, unknown>]> = [
      ['workspace_handshake', { project_root: repo.dir }],
      ['task', { action: 'list' }],
      ['task', { action: 'get', task_id: 'csv' }],
      ['task', { action: 'create', title: 'New', depends_on: ['csv'], workflow: 'feature', workflow_phase: 'plan' }],
      ['task', { action: 'update', task_id: 'csv', result_summary: 'half', workflow_phase: 'review' }],
      ['dispatch', { action: 'create', task_id: 'csv', provider: 'gemini', prompt_preview: 'Go' }],
      ['dispatch', { action: 'claim', task_id: 'csv', owner: 'agent-1' }],
      ['dispatch', { action: 'status', task_id: 'csv' }],
      ['dispatch', { action: 'list' }],
      ['debt', { action: 'create', title: 'Slow', proposed_solution: 'cache', task_id: 'csv' }],
      ['debt', { action: 'list' }],
      ['prep_orchestrator', {}],
      ['refresh_context', { task_id: 'csv', save_snapshot: true }],
      ['refresh_context', { task_id: 'csv', format: 'detailed', save_snapshot: true }],
      ['context_snapshots', { action: 'list' }],
    ];
    const results: Array<[string, Loose]> = [];
    for (const [name, args] of calls) results.push([name, (await client.callTool({ name, arguments: args })) as Loose]);

    // Ids only known now: a dispatch to complete and two snapshots to compare.
    const dispatchId: string = results[5]![1].structuredContent.dispatch.id;
    results.push([
      'dispatch',
      (await client.callTool({ name: 'dispatch', arguments: { action: 'complete', dispatch_id: dispatchId } })) as Loose,
    ]);
    const snapshots: Loose[] = results[14]![1].structuredContent.snapshots;
    expect(snapshots.length).toBe(2);
    const compare = { action: 'compare', from: snapshots[1].id, to: snapshots[0].id };
    results.push(['context_snapshots', (await client.callTool({ name: 'context_snapshots', arguments: compare })) as Loose]);

    // Every tool the server lists was called, so a new tool cannot skip this check.
    const { tools } = await client.listTools();
    expect(new Set(results.map(([name]) => name))).toEqual(new Set(tools.map((tool) => tool.name)));

    for (const [name, result] of results) {
      expect(result.isError, `${name}: ${result.content?.[0]?.text}`).toBeFalsy();
      expect(camelKeys(result.structuredContent), `${name} structuredContent`).toEqual([]);
      const text: string = result.content[0].text;
      if (text.startsWith('{')) expect(camelKeys(JSON.parse(text)), `${name} text`).toEqual([]);
    }

    // The fields that used to be camelCase arrive converted, with their values intact.
    const task = results[2]![1].structuredContent.task;
    expect(task).toMatchObject({ depends_on: ['dep'], block_reason: 'none', links: { workflow_phase: 'build' } });
    expect(task.acceptance_criteria).toEqual([{ description: 'exports', check: 'true' }]);
    expect(task.options).toEqual({ maxTurns: 3 });
    expect(results[6]![1].structuredContent.claim).toMatchObject({ task_id: 'csv', owner: 'agent-1' });
    expect(results[6]![1].structuredContent.claim.lease_until).toBeGreaterThan(Date.now());
    const failed = results[8]![1].structuredContent.dispatches.find((d: Loose) => d.attempt === 1);
    expect(failed).toMatchObject({ task_id: 'csv', files_created: ['a.ts'], agent_process: { start_time: '1' }, duration_ms: 1 });
    expect(results[10]![1].structuredContent.items[0].data).toHaveProperty('proposed_solution');
    expect(results[11]![1].structuredContent.breakers[0]).toMatchObject({ provider: 'claude', failure_count: 3, probe_owner: 'x' });
    const updated: Loose[] = results.at(-1)![1].structuredContent.delta.updated;
    for (const entry of updated) for (const field of entry.changed ?? []) expect(field).not.toMatch(/[A-Z]/);
  });

  it('rejects a camelCase argument by name instead of dropping it', async () => {
    const { server } = createBatonMcpServer({ registry: new WorkspaceRegistry(async () => new MemoryLedger()) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'wire-case', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });
    const result = (await client.callTool({ name: 'dispatch', arguments: { action: 'create', taskId: 'csv', provider: 'x' } })) as Loose;
    expect(result.isError).toBe(true);
    expect(result._meta['baton/error']).toMatchObject({ code: 'INPUT_INVALID', details: { field: 'taskId' } });
    expect(result.content[0].text).toMatch(/unknown field "taskId" \(arguments are snake_case: did you mean "task_id"\?\)/);
  });
});
