/**
 * refresh_context's metadata.token_estimate against what the MCP tool really sends, over the SDK's
 * own client and an in-memory transport, with the server's result cache in play (a SQLite ledger
 * reports its version, so the cache applies and metadata.cache.result is part of what is sent).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { createBatonMcpServer, WorkspaceRegistry } from '../../src/mcp/index.js';
import { countTokens } from '../../src/tokens/index.js';
import { type Loose, makeRepo } from '../refresh/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('refresh_context token_estimate over MCP', () => {
  it('narrative: equals the o200k count of what the tool sends, on a cache miss and on a hit', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const ledger = await openLedger({ spec: `sqlite:${repo.dir}/.baton/ledger.db`, cwd: repo.dir });
    await ledger.createTask({ id: 't1', title: 'Add CSV export', status: 'in_progress', instructions: 'Export the table as CSV.' });
    const { server } = createBatonMcpServer({ registry: new WorkspaceRegistry(async () => ledger) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'estimate', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });

    const statuses: string[] = [];
    for (let call = 0; call < 2; call += 1) {
      const result = (await client.callTool({ name: 'refresh_context', arguments: { format: 'narrative', task_id: 't1' } })) as Loose;
      const metadata = result.structuredContent.metadata;
      statuses.push(metadata.cache.result);
      const sent = Math.max(countTokens(result.content[0].text), countTokens(JSON.stringify(result.structuredContent)));
      expect(metadata.token_estimate).toBe(sent);
      expect(metadata.token_estimate).toBeLessThanOrEqual(metadata.token_budget);
    }
    expect(statuses).toEqual(['miss', 'hit']);
  });
});
