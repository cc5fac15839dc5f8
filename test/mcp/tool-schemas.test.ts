import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createBatonMcpServer, WorkspaceRegistry } from '../../src/mcp/index.js';
import { checkedSchemaBuilds } from '../../src/mcp/register-checked-tool.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// A real SDK client over the SDK's in-memory transport, as in in-process-server.test.ts.
async function connect(registry: WorkspaceRegistry): Promise<Client> {
  const { server } = createBatonMcpServer({ registry });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'schemas', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

describe('tool input schemas', () => {
  it('are built once per process: a new session reuses them and still advertises the strict contract', async () => {
    const registry = new WorkspaceRegistry();
    cleanups.push(() => registry.close());
    await connect(registry);
    const afterFirst = checkedSchemaBuilds();
    expect(afterFirst).toBeGreaterThan(0);

    const second = await connect(registry);
    await connect(registry);
    expect(checkedSchemaBuilds()).toBe(afterFirst);

    const { tools } = await second.listTools();
    const refresh = tools.find((tool) => tool.name === 'refresh_context');
    expect(refresh?.inputSchema.properties?.format).toMatchObject({ enum: ['minimal', 'standard', 'detailed', 'narrative'] });
    const handshake = tools.find((tool) => tool.name === 'workspace_handshake');
    expect(handshake?.inputSchema.required).toEqual(['project_root']);
    const snapshots = tools.find((tool) => tool.name === 'context_snapshots');
    expect(snapshots?.inputSchema.required).toEqual(['action']);
  });

  it('still reject bad input with a readable error naming the field in a reused session', async () => {
    const registry = new WorkspaceRegistry();
    cleanups.push(() => registry.close());
    await connect(registry);
    const client = await connect(registry);
    const result = (await client.callTool({ name: 'workspace_handshake', arguments: { project_root: 42 } })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/INPUT_INVALID.*project_root/);
  });
});
