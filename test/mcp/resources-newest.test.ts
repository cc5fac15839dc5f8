/**
 * Issue 34 item 12: past 1,000 open tasks `resources/list` never listed the newest ones (it read the
 * oldest 1,000, then sorted), so a task just created over MCP was missing. Through the real MCP SDK
 * client over Streamable HTTP, on the SQLite and the Redis ledger.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Ledger, openLedger, type OpenLedgerOptions } from '../../src/ledger/index.js';
import { DEFAULT_LISTED_CONTEXTS, serveHttp, WorkspaceRegistry } from '../../src/mcp/index.js';
import { makeRepo } from '../refresh/helpers.js';
import { deleteNamespace, isRedisReachable, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';

/** More open tasks than the listing reads (1,000). */
const OPEN_TASKS = 1_100;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Backend {
  name: string;
  options(root: string): Promise<OpenLedgerOptions>;
}

const backends: Backend[] = [
  { name: 'sqlite', options: async (root) => ({ spec: `sqlite:${path.join(root, '.baton', 'agent.db')}` }) },
  {
    name: 'redis',
    options: async () => {
      const namespace = uniqueNamespace('newest');
      cleanups.push(() => deleteNamespace(namespace));
      return { spec: REDIS_TEST_URL, namespace };
    },
  },
];

/** Creates OPEN_TASKS open tasks in a batch: each a second newer than the last. */
async function seed(ledger: Ledger, clock: { now: number }): Promise<void> {
  const statuses = ['pending', 'in_progress', 'blocked'] as const;
  const ids = Array.from({ length: OPEN_TASKS }, (_, i) => `seed-${String(i).padStart(4, '0')}`);
  for (const [i, id] of ids.entries()) {
    clock.now += 1_000;
    await ledger.createTask({ id, title: `Seeded ${i}`, status: statuses[i % 3] });
  }
}

const redisUp = await isRedisReachable();

describe.each(backends)('resources/list past 1,000 open tasks ($name)', (backend) => {
  it.skipIf(backend.name === 'redis' && !redisUp)(
    'lists the newest tasks, and a task just created over MCP',
    async () => {
      const repo = makeRepo({ 'a.txt': 'a\n' });
      cleanups.push(repo.cleanup);
      const clock = { now: 1_700_000_000_000 };
      const options = { ...(await backend.options(repo.dir)), now: () => clock.now };
      const seeding = await openLedger(options);
      await seed(seeding, clock);
      await seeding.close();

      const registry = new WorkspaceRegistry(() => openLedger(options));
      cleanups.push(() => registry.close());
      const server = await serveHttp({ port: 0, registry, workspace: repo.dir });
      cleanups.push(() => server.close());
      const client = new Client({ name: 'newest-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      cleanups.push(() => client.close());

      clock.now += 1_000;
      const created = await client.callTool({ name: 'task', arguments: { action: 'create', task_id: 'fresh', title: 'Just created' } });
      expect(created.isError ?? false).toBe(false);

      const { resources } = await client.listResources();
      const listed = resources.map((r) => r.uri.replace('baton://context/', '')).filter((id) => id !== 'current');
      const newestSeeded = Array.from(
        { length: DEFAULT_LISTED_CONTEXTS - 1 },
        (_, i) => `seed-${String(OPEN_TASKS - 1 - i).padStart(4, '0')}`,
      );
      expect(listed).toEqual(['fresh', ...newestSeeded]);
    },
    120_000,
  );
});
