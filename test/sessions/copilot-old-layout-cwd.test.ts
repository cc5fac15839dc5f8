import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getAgentSession, type Ledger, openLedger } from '../../src/ledger/index.js';
import { createCopilotParser, importSessions } from '../../src/sessions/index.js';
import { tempDir } from '../helpers/cli.js';

/** An older-layout Copilot CLI session (`session-state/<id>.jsonl`, Dec 2025): shaped as the shared fixtures' records. */
function oldLayout(id: string, cwd: string): string {
  const at = '2025-12-02T08:26:25.611Z';
  const system = [
    'You are the GitHub Copilot CLI, a terminal assistant built by GitHub.',
    '<environment_context>',
    'You are working in the following environment. You do not need to make additional tool calls to verify this.',
    `* Current working directory: ${cwd}`,
    `* Git repository root: ${cwd}`,
    '* Operating System: Linux',
    '</environment_context>',
  ].join('\n');
  const records = [
    {
      type: 'session.start',
      data: { sessionId: id, version: 1, producer: 'copilot-agent', copilotVersion: 'unknown', startTime: at },
      timestamp: at,
    },
    {
      type: 'user.message',
      data: { content: `fix the build\n\n<current_datetime>${at}</current_datetime>`, attachments: [] },
      timestamp: at,
    },
    { type: 'system.message', data: { content: system }, timestamp: at },
    {
      type: 'tool.execution_start',
      data: { toolCallId: 't1', toolName: 'powershell', arguments: { command: 'npm run build' } },
      timestamp: at,
    },
    {
      type: 'tool.execution_complete',
      data: { toolCallId: 't1', success: true, result: { content: 'ok\n<exited with exit code 0>' } },
      timestamp: at,
    },
  ];
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

describe("Copilot CLI's older layout: the cwd from its environment context (issue 37)", () => {
  let base: string;
  let workspace: string;
  let ledger: Ledger;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const t = await tempDir('baton-copilot-old-');
    ({ cleanup } = t);
    base = t.dir;
    workspace = path.join(base, 'project');
    await mkdir(workspace, { recursive: true });
    ledger = await openLedger({ spec: 'memory', cwd: workspace });
  });
  afterEach(async () => {
    await ledger.close();
    await cleanup();
  });

  it('the reader takes the cwd and git root from the first system message', () => {
    const parser = createCopilotParser('/s/abc.jsonl');
    for (const line of oldLayout('abc', 'C:\\Users\\dev\\app').trim().split('\n')) parser.push(JSON.parse(line));
    expect(parser.finish()).toMatchObject({ id: 'abc', cwd: 'C:\\Users\\dev\\app', gitRoot: 'C:\\Users\\dev\\app' });
  });

  it("imports this workspace's older-layout session and not another folder's", async () => {
    const store = path.join(base, 'home', 'copilot', 'session-state');
    await mkdir(store, { recursive: true });
    await writeFile(
      path.join(store, 'aaaa1111-0000-4000-8000-000000000001.jsonl'),
      oldLayout('aaaa1111-0000-4000-8000-000000000001', workspace),
    );
    await writeFile(
      path.join(store, 'bbbb2222-0000-4000-8000-000000000002.jsonl'),
      oldLayout('bbbb2222-0000-4000-8000-000000000002', `${workspace}-other`),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: path.join(base, 'home'), COPILOT_HOME: path.join(base, 'home', 'copilot') };
    env.CLAUDE_CONFIG_DIR = path.join(base, 'home', 'claude');
    env.CODEX_HOME = path.join(base, 'home', 'codex');
    env.GEMINI_CLI_HOME = path.join(base, 'home', 'gemini');
    const result = await importSessions(ledger, { cwd: workspace, env });
    expect(result).toMatchObject({ found: 1, imported: 1, foreign: 1 });
    const record = await getAgentSession(ledger, 'copilot-aaaa1111-0000-4000-8000-000000000001');
    expect(record?.data).toMatchObject({ toolCalls: 1, turns: 1 });
  });
});
