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

// In-process pairing through the SDK's own in-memory transport: the same server and client code
// as stdio/HTTP, without a process, so the ledger can be made to fail on purpose.
async function connect(registry: WorkspaceRegistry): Promise<Client> {
  const { server } = createBatonMcpServer({ registry });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'in-process', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

// An error's structured form rides in _meta; its text is what a model reads.
function parse(result: Loose): Loose {
  return result._meta['baton/error'];
}

describe('Baton MCP server with a ledger that cannot be opened', () => {
  it('completes the handshake, reports the ledger error, and refresh_context degrades to git only', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const client = await connect(
      new WorkspaceRegistry(async () => {
        throw new Error('SQLITE_CANTOPEN: unable to open database file');
      }),
    );
    const hs = (await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } })) as Loose;
    expect(hs.isError).toBeFalsy();
    expect(hs.structuredContent.ledger).toMatchObject({
      backend: 'unavailable',
      tried: 'sqlite',
      error: 'SQLITE_CANTOPEN: unable to open database file',
    });
    expect(hs.structuredContent.ledger.location).toMatch(/^unavailable \(SQLITE_CANTOPEN/);

    const refresh = (await client.callTool({ name: 'refresh_context', arguments: {} })) as Loose;
    expect(refresh.isError).toBeFalsy();
    expect(refresh.structuredContent.metadata.warnings.join('\n')).toMatch(/Ledger unavailable: .*SQLITE_CANTOPEN/);
    expect(refresh.structuredContent.git_status.branch).toBe('main');

    const tasks = (await client.callTool({ name: 'task', arguments: { action: 'list' } })) as Loose;
    expect(tasks.isError).toBe(true);
    expect(parse(tasks).code).toBe('LEDGER_UNAVAILABLE');
    expect(tasks.content[0].text).toMatch(/^Error LEDGER_UNAVAILABLE: The ledger of .* cannot be opened: SQLITE_CANTOPEN/);
  });

  it('rejects task_id together with task_ids', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const ledger = new MemoryLedger();
    await ledger.createTask({ id: 'a', title: 'A' });
    const client = await connect(new WorkspaceRegistry(async () => ledger));
    await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });
    const result = (await client.callTool({ name: 'refresh_context', arguments: { task_id: 'a', task_ids: ['a'] } })) as Loose;
    expect(result.isError).toBe(true);
    expect(parse(result)).toMatchObject({ code: 'INPUT_INVALID', details: { field: 'task_ids' } });
  });

  it('reports input that fails the schema as readable text naming the field, with no structuredContent', async () => {
    const client = await connect(new WorkspaceRegistry(async () => new MemoryLedger()));
    const bad = (await client.callTool({ name: 'task', arguments: { action: 42 } })) as Loose;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(parse(bad)).toMatchObject({ code: 'INPUT_INVALID', details: { field: 'action', value: 42 } });
    const text: string = bad.content[0].text;
    expect(text).toMatch(/^Error INPUT_INVALID: Invalid arguments for task: action: /);
    expect(text).toMatch(/Field: action \(got 42\)\nNext step: /);
    expect(() => JSON.parse(text)).toThrow();
    const unknown = (await client.callTool({ name: 'no_such_tool', arguments: {} })) as Loose;
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toMatch(/Tool no_such_tool not found/);
  });

  it('advertises the strict input schema (required fields, enums) although it validates input itself', async () => {
    const client = await connect(new WorkspaceRegistry(async () => new MemoryLedger()));
    const { tools } = await client.listTools();
    const task = tools.find((t) => t.name === 'task') as Loose;
    expect(task.inputSchema.required).toEqual(['action']);
    expect(task.inputSchema.properties.action).toMatchObject({ type: 'string', enum: ['list', 'get', 'create', 'update'] });
    const hs = tools.find((t) => t.name === 'workspace_handshake') as Loose;
    expect(hs.inputSchema.properties.project_root).toMatchObject({ type: 'string', minLength: 1 });
  });

  it('refuses a handshake with a project root that is not a directory, naming the field', async () => {
    const client = await connect(new WorkspaceRegistry(async () => new MemoryLedger()));
    const result = (await client.callTool({ name: 'workspace_handshake', arguments: { project_root: '/no/such/dir' } })) as Loose;
    expect(result.isError).toBe(true);
    expect(parse(result)).toMatchObject({ code: 'INPUT_INVALID', details: { field: 'project_root', value: '/no/such/dir' } });
  });

  it('saves a snapshot through refresh_context and compares two with context_snapshots', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const ledger = new MemoryLedger();
    await ledger.createTask({ id: 'a', title: 'A', status: 'in_progress' });
    const client = await connect(new WorkspaceRegistry(async () => ledger));
    await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });
    const first = (await client.callTool({ name: 'refresh_context', arguments: { save_snapshot: true, format: 'minimal' } })) as Loose;
    await ledger.updateTask('a', { status: 'blocked', blockReason: 'needs review' });
    const second = (await client.callTool({ name: 'refresh_context', arguments: { save_snapshot: true, format: 'minimal' } })) as Loose;
    const list = (await client.callTool({ name: 'context_snapshots', arguments: { action: 'list' } })) as Loose;
    expect(list.structuredContent.snapshots).toHaveLength(2);
    const compare = (await client.callTool({
      name: 'context_snapshots',
      arguments: {
        action: 'compare',
        from: first.structuredContent.metadata.snapshot_id,
        to: second.structuredContent.metadata.snapshot_id,
      },
    })) as Loose;
    expect(compare.structuredContent.delta.updated.find((e: Loose) => e.key === 'task:a').changed).toContain('status');
  });
});
