import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { createBatonMcpServer, DEFAULT_LISTED_CONTEXTS, RESOURCE_NOT_FOUND, WorkspaceRegistry } from '../../src/mcp/index.js';
import { makeRepo } from '../refresh/helpers.js';

// Issue 30: Gemini CLI reads only the resources `resources/list` returned, so every open task's
// context must be listed there (bounded, most recently active first), next to the template other
// clients read; a task that does not exist is the specification's "resource not found" (-32002).

let clock = 1_000_000;
let ledger: MemoryLedger;
let repo: ReturnType<typeof makeRepo>;
const clients: Client[] = [];

beforeEach(() => {
  repo = makeRepo();
  ledger = new MemoryLedger(() => clock);
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  repo.cleanup();
});

async function connect(workspace: string | null = repo.dir): Promise<Client> {
  const registry = new WorkspaceRegistry(async () => ledger);
  const { server } = createBatonMcpServer({ registry, workspace: workspace ?? undefined });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'gemini-cli-mcp-client', version: '0.61.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function createTask(id: string, status: 'pending' | 'in_progress' | 'blocked' | 'completed' | 'archived') {
  clock += 1_000;
  await ledger.createTask({ id, title: `Task ${id}`, status });
}

async function readError(client: Client, uri: string): Promise<McpError> {
  const error = await client.readResource({ uri }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('context resources', () => {
  it('lists the open tasks, most recently active first and at most DEFAULT_LISTED_CONTEXTS, after the current one', async () => {
    const statuses = ['pending', 'in_progress', 'blocked'] as const;
    for (let i = 0; i < 25; i += 1) await createTask(`open${i}`, statuses[i % 3] ?? 'pending');
    await createTask('done', 'completed');
    await createTask('shelved', 'archived');
    clock += 1_000;
    await ledger.updateTask('open3', { title: 'Task open3, edited' });
    clock += 1_000;
    // A dispatch is activity too: the task it ran for comes first.
    await ledger.appendDispatch({ taskId: 'open5', attempt: 1, provider: 'claude' });

    const { resources } = await (await connect()).listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris[0]).toBe('baton://context/current');
    const listed = uris.slice(1).map((uri) => uri.replace('baton://context/', ''));
    expect(listed).toHaveLength(DEFAULT_LISTED_CONTEXTS);
    expect(listed.slice(0, 4)).toEqual(['open5', 'open3', 'open24', 'open23']);
    expect(listed).not.toContain('done');
    expect(listed).not.toContain('shelved');
    // The oldest untouched ones are the ones left out.
    expect(listed).not.toContain('open0');
    expect(resources[1]?.title).toBe('Context of task open5 (blocked): Task open5');
  });

  it('reads every listed URI and offers the template for any task id', async () => {
    await createTask('api', 'in_progress');
    await createTask('docs', 'pending');
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['baton://context/current', 'baton://context/docs', 'baton://context/api']);
    for (const { uri } of resources) {
      const content = (await client.readResource({ uri })).contents[0] as { text: string };
      expect(JSON.parse(content.text).metadata.format).toBe('standard');
    }
    const docs = (await client.readResource({ uri: 'baton://context/docs' })).contents[0] as { text: string };
    expect(JSON.parse(docs.text).current_task.id).toBe('docs');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['baton://context/{task_id}']);
  });

  it('answers -32002 (resource not found) for a task that does not exist, naming it and where to look', async () => {
    await createTask('api', 'in_progress');
    const error = await readError(await connect(), 'baton://context/ghost');
    expect(error.code).toBe(RESOURCE_NOT_FOUND);
    expect(RESOURCE_NOT_FOUND).toBe(-32002);
    expect(error.message).toMatch(/Resource baton:\/\/context\/ghost not found: .*"ghost"/);
    expect(error.message).toContain('resources/list names the open tasks');
    expect(error.data).toEqual({ uri: 'baton://context/ghost' });
  });

  it('answers -32002 before a workspace is active, and -32602 for a format that does not exist', async () => {
    const noWorkspace = await readError(await connect(null), 'baton://context/current');
    expect(noWorkspace.code).toBe(-32002);
    expect(noWorkspace.message).toMatch(/No active workspace\. Call workspace_handshake first/);
    await createTask('api', 'in_progress');
    const badFormat = await readError(await connect(), 'baton://context/api?format=huge');
    expect(badFormat.code).toBe(-32602);
    expect(badFormat.message).toMatch(/format must be one of minimal, standard, detailed, narrative; got "huge"/);
  });
});
