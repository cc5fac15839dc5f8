/**
 * MCP `dispatch create` without an attempt asks the ledger for the next attempt number, allocated
 * atomically: three `baton mcp` server processes on one workspace (one SQLite ledger), each with a
 * real SDK client over stdio, creating dispatches for one task at the same time get 1, 2 and 3.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type Loose } from '../refresh/helpers.js';
import { batonCommand, ROOT } from './helpers/launch.js';

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Loose };

let repo: ReturnType<typeof makeRepo>;
const clients: Client[] = [];

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

beforeAll(async () => {
  repo = makeRepo({ 'a.txt': 'a\n' });
  const { command, args } = batonCommand();
  for (let i = 0; i < 3; i += 1) {
    const transport = new StdioClientTransport({
      command,
      args: [...args, 'mcp'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), BATON_LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: `attempts-${i}`, version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const hs = await call(client, 'workspace_handshake', { project_root: repo.dir });
    expect(hs.isError).toBeFalsy();
  }
}, 90_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  repo?.cleanup();
});

describe('dispatch create across MCP server processes', () => {
  it('gives three concurrent creates attempts 1, 2 and 3', async () => {
    const [first] = clients as [Client];
    expect((await call(first, 'task', { action: 'create', task_id: 'shared', title: 'Shared task' })).isError).toBeFalsy();
    for (let round = 0; round < 2; round += 1) {
      const results = await Promise.all(
        clients.map((client) => call(client, 'dispatch', { action: 'create', task_id: 'shared', provider: 'claude' })),
      );
      for (const r of results) expect(r.isError, r.content[0]?.text).toBeFalsy();
      const attempts = results.map((r) => r.structuredContent?.dispatch.attempt as number).sort((a, b) => a - b);
      expect(attempts).toEqual([1, 2, 3].map((n) => n + round * 3));
    }
    // An explicit attempt is kept as given (a provider switch inside attempt 2).
    const explicit = await call(first, 'dispatch', { action: 'create', task_id: 'shared', provider: 'codex', attempt: 2 });
    expect(explicit.structuredContent?.dispatch.attempt).toBe(2);
  }, 60_000);
});
