/**
 * Issue 34 item 16: a 100 KB task id broke the context caps and a 20 MB one was accepted (its agent
 * could not start). A task id is at most 256 characters at every entry point: the ledger's
 * createTask (every backend), import, plan files and runPlan, `baton task add`, MCP's task create.
 * The error names the field, the length and the limit, never the whole id. (An agent that could
 * not start never completes: test/supervisor/agent-start.test.ts.)
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TASK_ID_LENGTH, materializeTask, MemoryLedger, openLedger, parseLedgerLines } from '../../src/ledger/index.js';
import { createBatonMcpServer, WorkspaceRegistry } from '../../src/mcp/index.js';
import { parsePlan, runPlan } from '../../src/supervisor/index.js';
import { runBaton, tempDir } from '../helpers/cli.js';

const HUGE = 'x'.repeat(100 * 1024);
const LONGEST = 'y'.repeat(MAX_TASK_ID_LENGTH);
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function folder(): Promise<string> {
  const { dir, cleanup } = await tempDir('baton-task-id-');
  cleanups.push(cleanup);
  return dir;
}

/** The message names the limit and the length, and holds only the id's start. */
function expectBounded(message: string): void {
  expect(message).toContain(`over the limit of ${MAX_TASK_ID_LENGTH}`);
  expect(message).toContain(String(HUGE.length));
  expect(message.length).toBeLessThan(400);
}

describe('a task id over 256 characters', () => {
  it.each(['memory', 'sqlite'])('is refused by createTask on the %s ledger, which takes 256', async (kind) => {
    const dir = await folder();
    const ledger = await openLedger({ spec: kind === 'memory' ? 'memory' : `sqlite:${path.join(dir, 'agent.db')}` });
    cleanups.push(() => ledger.close());
    const error = await ledger.createTask({ id: HUGE, title: 'huge' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INPUT_INVALID', details: { field: 'id', limit: MAX_TASK_ID_LENGTH, length: HUGE.length } });
    expectBounded((error as Error).message);
    expect(await ledger.countTasksByStatus()).toMatchObject({ pending: 0 });
    expect((await ledger.createTask({ id: LONGEST, title: 'longest' })).id).toBe(LONGEST);
  });

  it('is refused in an import file, nothing imported', () => {
    const record = materializeTask({ id: LONGEST, title: 'longest' }, 1);
    const line = (id: string) => JSON.stringify({ kind: 'task', record: { ...record, id } });
    expect(parseLedgerLines(line(LONGEST), 'ledger.jsonl')).toHaveLength(1);
    expect(() => parseLedgerLines(line(HUGE), 'ledger.jsonl')).toThrow(
      `ledger.jsonl:1: field "record.id": at most ${MAX_TASK_ID_LENGTH} characters`,
    );
  });

  it('is refused in a plan file and by runPlan, before the ledger is written', async () => {
    expect(() => parsePlan(JSON.stringify({ tasks: [{ id: HUGE, instructions: 'x' }] }), 'plan.json')).toThrow(
      `a task id of at most ${MAX_TASK_ID_LENGTH} characters`,
    );
    const ledger = new MemoryLedger();
    const dir = await folder();
    const run = runPlan({ tasks: [{ id: HUGE, instructions: 'x' }] } as never, { ledger, providers: [], workspaceDir: dir });
    await expect(run).rejects.toThrow(`a task id of at most ${MAX_TASK_ID_LENGTH} characters`);
    expect((await ledger.listTasks()).items).toEqual([]);
  });

  it('is refused by `baton task add` before the ledger is opened', async () => {
    const dir = await folder();
    const db = path.join(dir, 'agent.db');
    const run = await runBaton(['task', 'add', HUGE, '--title', 'huge', '--ledger', `sqlite:${db}`], { cwd: dir });
    expect(run.code).not.toBe(0);
    expectBounded(run.stderr);
    expect(existsSync(db)).toBe(false);
  });

  it('is refused by MCP task create, naming task_id', async () => {
    const dir = await folder();
    writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    const ledger = new MemoryLedger();
    const { server } = createBatonMcpServer({ registry: new WorkspaceRegistry(async () => ledger), workspace: dir });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'id-test', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'task', arguments: { action: 'create', task_id: HUGE, title: 'huge' } });
    expect(result.isError).toBe(true);
    const text = JSON.stringify(result.content);
    expect(text).toContain('task_id');
    expectBounded(text);
    expect((await ledger.listTasks()).items).toEqual([]);
  });
});
