import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { createBatonMcpServer, WorkspaceRegistry } from '../../src/mcp/index.js';
import { SNAPSHOT_DIR } from '../../src/refresh/index.js';
import type { Loose } from '../refresh/helpers.js';
import { seedCrowdedWorkspace } from './crowded-workspace.js';

// Issue 35: refresh_context fits what the client receives inside the one render (budget/fit), so
// a client with a byte limit (Copilot CLI: 20,480 bytes) no longer costs a second and third
// refreshContext, each writing its own audit entry, session state and snapshot.

let ledger: MemoryLedger;
let repo: Awaited<ReturnType<typeof seedCrowdedWorkspace>>;
let registry: WorkspaceRegistry;

beforeAll(async () => {
  ledger = new MemoryLedger();
  repo = await seedCrowdedWorkspace(ledger, 9);
  registry = new WorkspaceRegistry(async () => ledger);
}, 120_000);

afterAll(async () => {
  await registry.close();
  repo.cleanup();
});

async function connect(name: string): Promise<Client> {
  const { server } = createBatonMcpServer({ registry, workspace: repo.dir });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

function snapshotFiles(): string[] {
  const dir = path.join(repo.dir, SNAPSHOT_DIR);
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

describe('refresh_context writes its bookkeeping once, after fitting', () => {
  it.each(['copilot-cli', 'claude-code'])('%s: detailed with save_snapshot makes 1 audit entry and 1 snapshot', async (name) => {
    const client = await connect(name);
    const auditsBefore = (await ledger.listRecords('audit', { limit: 1000 })).items.length;
    const snapshotsBefore = (await ledger.listRecords('snapshots', { limit: 1000 })).items.length;
    const filesBefore = snapshotFiles().length;
    const result = (await client.callTool({
      name: 'refresh_context',
      arguments: { task_id: 'busy', format: 'detailed', save_snapshot: true },
    })) as Loose;
    await client.close();
    expect(result.isError, result.content?.[0]?.text).toBeFalsy();
    // What the client receives still fits: Copilot's byte limit, measured inside the one render.
    if (name === 'copilot-cli') expect(Buffer.byteLength(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(20_480);
    const audits = (await ledger.listRecords<Record<string, unknown>>('audit', { limit: 1000 })).items;
    expect(audits.length - auditsBefore).toBe(1);
    const id = result.structuredContent.metadata.snapshot_id as string;
    expect((await ledger.listRecords('snapshots', { limit: 1000 })).items.length - snapshotsBefore).toBe(1);
    expect(snapshotFiles().length - filesBefore).toBe(1);
    expect(snapshotFiles().some((file) => file.includes(id))).toBe(true);
    expect(audits.filter((audit) => audit.data.snapshotId === id)).toHaveLength(1);
  });
});
