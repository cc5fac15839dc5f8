/**
 * `npm run bench -- refresh-fit [--runs N] [--label before|after]`: what fitting a refresh to its
 * cap costs where it has work to do. The crowded workspace of test/mcp/crowded-workspace.ts fills
 * every format to its cap (long diffs, README, tracking logs, 25 long attempts, and task `quoted`
 * whose quotes cost ~40 % more once escaped), so each render is shrunk at least once. Scenarios:
 * refreshContext from code in each format, ten tasks sharing `standard`, and refresh_context and
 * context resource reads through the real MCP SDK client (in-memory transport) as the clients whose
 * form needs more than the format's own cap: Copilot CLI (20,480 bytes), a client Baton does not
 * know (both forms), Claude Code reading a resource (escaped inside JSON). Reports the p50 wall
 * time of each and the ledger writes (audit entries) one call leaves. Results go to
 * bench/results/refresh-fit.json under `--label` (default "after"); other labels are kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MemoryLedger } from '../src/ledger/index.js';
import { createBatonMcpServer, WorkspaceRegistry } from '../src/mcp/index.js';
import { GitCache, refreshContext, refreshTasks } from '../src/refresh/index.js';
import { seedCrowdedWorkspace } from '../test/mcp/crowded-workspace.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TEN = ['busy', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9'];

interface Row {
  scenario: string;
  p50_ms: number;
  p95_ms: number;
  audit_entries_per_call: number;
  tokens: number;
}

export default async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 15);
  const label = flag(args, '--label') ?? 'after';
  const ledger = new MemoryLedger();
  const repo = await seedCrowdedWorkspace(ledger, 9);
  const registry = new WorkspaceRegistry(async () => ledger);
  const gitCache = new GitCache();
  const common = { workspace: repo.dir, ledger, gitCache, sessionId: 'bench' };
  const rows: Row[] = [];
  const measure = async (scenario: string, call: () => Promise<number>) => {
    await call(); // loads (tokenizer, secret rules) and fills the git cache
    const before = await auditCount(ledger);
    const times: number[] = [];
    let tokens = 0;
    for (let i = 0; i < runs; i += 1) {
      const t = performance.now();
      tokens = await call();
      times.push(performance.now() - t);
    }
    const audits = ((await auditCount(ledger)) - before) / runs;
    rows.push({
      scenario,
      p50_ms: round(percentile(times, 50)),
      p95_ms: round(percentile(times, 95)),
      audit_entries_per_call: audits,
      tokens,
    });
    console.log(JSON.stringify(rows.at(-1)));
  };
  try {
    for (const format of ['minimal', 'standard', 'detailed', 'narrative'] as const) {
      await measure(`refreshContext ${format}`, async () => {
        const result = await refreshContext({ ...common, taskId: 'busy', format });
        return result.metadata.token_estimate;
      });
    }
    await measure(
      'refreshTasks 10 tasks standard',
      async () => (await refreshTasks(TEN, { ...common, format: 'standard' })).metadata.token_estimate,
    );
    const tool = async (name: string, args: Record<string, unknown>) => {
      const client = await connect(registry, repo.dir, name);
      const scenario = `refresh_context as ${name} ${JSON.stringify(args)}`;
      await measure(scenario, async () => {
        const result = (await client.callTool({ name: 'refresh_context', arguments: args })) as unknown as {
          structuredContent: { metadata: { token_estimate: number } };
        };
        return result.structuredContent.metadata.token_estimate;
      });
      await client.close();
    };
    await tool('copilot-cli', { task_id: 'busy', format: 'detailed' });
    await tool('copilot-cli', { task_ids: TEN, format: 'detailed' });
    await tool('some-editor', { task_id: 'quoted', format: 'standard' });
    for (const format of ['standard', 'detailed'] as const) {
      const client = await connect(registry, repo.dir, 'claude-code');
      await measure(`resource read as claude-code quoted ${format}`, async () => {
        const read = await client.readResource({ uri: `baton://context/quoted?format=${format}` });
        return (read.contents[0] as { text: string }).text.length;
      });
      await client.close();
    }
  } finally {
    await registry.close();
    repo.cleanup();
  }
  const out = path.join(HERE, 'results', 'refresh-fit.json');
  const previous = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  const result = {
    ...previous,
    [label]: { at: new Date().toISOString(), node: process.version, load_1m: round(loadavg()[0] ?? 0), runs, scenarios: rows },
  };
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
}

async function connect(registry: WorkspaceRegistry, workspace: string, name: string): Promise<Client> {
  const { server } = createBatonMcpServer({ registry, workspace });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function auditCount(ledger: MemoryLedger): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await ledger.listRecords('audit', { limit: 500, cursor });
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
