import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { clientProfile, createBatonMcpServer, resultBudget, WorkspaceRegistry } from '../../src/mcp/index.js';
import { FORMAT_TOKEN_CAPS, type RefreshFormat } from '../../src/refresh/index.js';
import { makeRepo, type Loose } from '../refresh/helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(registry: WorkspaceRegistry, workspace: string, name: string): Promise<Client> {
  const { server } = createBatonMcpServer({ registry, workspace });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

async function setUp() {
  const repo = makeRepo({ 'src/app.ts': 'export {};\n' });
  cleanups.push(repo.cleanup);
  const registry = new WorkspaceRegistry((root) => openLedger({ spec: `sqlite:${path.join(root, '.baton', 'agent.db')}` }));
  cleanups.push(() => registry.close());
  return { repo, registry };
}

describe('the MCP server warm-up', () => {
  it('reads git, opens the ledger, loads the renderers and the secret scanner, and leaves a standard result for a new session', async () => {
    const { repo, registry } = await setUp();
    const report = await registry.warm(repo.dir);
    expect(Object.keys(report.steps).sort()).toEqual(['git', 'ledger', 'refresh_module', 'render_standard', 'secret_scanner']);
    expect(Object.values(report.steps).filter((step) => step.error)).toEqual([]);
    expect(registry.gitCache.misses).toBe(1);
    expect(registry.resultCache.size).toBe(1);
    // Nothing was written: no session record, no audit record.
    const { ledger } = await registry.ledger(repo.dir);
    expect((await ledger.listRecords('audit')).items).toEqual([]);

    // Claude Code's refresh_context asks for the format's own cap: what a warm-up without a known
    // client renders.
    const client = await connect(registry, repo.dir, 'claude-code');
    const result = await client.callTool({ name: 'refresh_context', arguments: { format: 'standard' } });
    const cache = (result.structuredContent as Loose).metadata.cache;
    expect(cache.result).toBe('hit');
    expect(registry.gitCache.misses).toBe(1);
  });

  it("renders for the budget the client's calls will ask for when it is known (stdio: after initialize)", async () => {
    const { repo, registry } = await setUp();
    // A client Baton does not know gets half of each cap, less a wrapper allowance (client-forwarding.ts).
    const budget = (format: RefreshFormat) => resultBudget(FORMAT_TOKEN_CAPS[format], clientProfile('some-editor'));
    await registry.warm(repo.dir, { budget });
    const client = await connect(registry, repo.dir, 'some-editor');
    const result = await client.callTool({ name: 'refresh_context', arguments: { format: 'standard' } });
    const metadata = (result.structuredContent as Loose).metadata;
    expect(metadata.token_budget).toBe((4_000 - 32) / 2);
    expect(metadata.cache.result).toBe('hit');
  });

  it('runs once per workspace, and after a handshake leaves git for the first call', async () => {
    const { repo, registry } = await setUp();
    const first = registry.warm(repo.dir, { git: false });
    expect(registry.warm(repo.dir)).toBe(first);
    const report = await first;
    expect(Object.keys(report.steps).sort()).toEqual(['ledger', 'refresh_module', 'secret_scanner']);
    expect(registry.gitCache.misses).toBe(0);
  });

  it('reports a failing step instead of throwing', async () => {
    const { repo } = await setUp();
    const plain = path.join(repo.dir, 'not-a-dir-file');
    const broken = new WorkspaceRegistry(async () => {
      throw new Error('disk on fire');
    });
    cleanups.push(() => broken.close());
    const report = await broken.warm(plain);
    expect(report.steps.git?.error).toMatch(/not a git repository|ENOENT|no .git/i);
    expect(report.steps.render_standard).toBeUndefined();
  });
});
