import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSessionData, getAgentSession, openLedger } from '../../src/ledger/index.js';
import { claudeProjectSlug, importSessions } from '../../src/sessions/index.js';
import { git } from '../../src/workspace/index.js';
import { tempDir } from '../helpers/cli.js';
import { CLAUDE_FIXTURE, layOutStores, runBin, storeEnv } from './session-stores-helper.js';

interface ImportJson {
  found: number;
  imported: number;
  unchanged: number;
  foreign: number;
  skipped_lines: number;
  records: string[];
}

describe('session discovery and import (real stores laid out in a temp HOME, the real bin)', () => {
  let home: string;
  let workspace: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const t = await tempDir('baton-sessions-');
    cleanup = t.cleanup;
    home = path.join(t.dir, 'home');
    workspace = path.join(t.dir, 'project');
    await mkdir(path.join(workspace, 'sub'), { recursive: true });
    await git(['init', '-q'], workspace);
  });
  afterEach(() => cleanup());

  it("finds this workspace's session in every store, skips another folder's, and skips unchanged files the second time", async () => {
    await layOutStores(home, workspace);
    const env = storeEnv(home);
    const first = await runBin(['sessions', 'import', '--json'], workspace, env);
    expect(first.stderr).toBe('');
    const a = JSON.parse(first.stdout) as ImportJson;
    expect(a).toMatchObject({ found: 4, imported: 4, foreign: 1, unchanged: 0, skipped_lines: 0 });
    expect(a.records.map((id) => id.split('-')[0]).sort()).toEqual(['claude', 'codex', 'copilot', 'gemini']);
    const second = JSON.parse((await runBin(['sessions', 'import', '--json'], workspace, env)).stdout) as ImportJson;
    expect(second).toMatchObject({ found: 4, imported: 0, unchanged: 4, foreign: 1 });

    const list = await runBin(['sessions', '--json', '--client', 'codex'], workspace, env);
    const rows = (JSON.parse(list.stdout) as { sessions: Array<{ client: string; session_id: string; calls: number; prompts: number }> })
      .sessions;
    expect(rows).toEqual([expect.objectContaining({ client: 'codex', session_id: '019c45b2-846a-7fa1-9ed7-42354e9982fd' })]);
    expect(rows[0]?.calls).toBeGreaterThan(10);
    const show = await runBin(['sessions', 'show', '3cc3555e'], workspace, env);
    expect(show.stdout).toContain('copilot session 3cc3555e-5462-44f9-95de-c67b1cb220b9');
    expect(show.stdout).toContain('Task: /init');
  });

  it('counts a malformed line, redacts a secret before storing, and re-reads only the changed file', async () => {
    const files = await layOutStores(home, workspace);
    const env = storeEnv(home);
    await runBin(['sessions', 'import'], workspace, env);
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const prompt = {
      type: 'user',
      sessionId: '42d26d1b-3995-4735-bd1f-db7687b0bb86',
      timestamp: '2026-01-08T22:00:00Z',
      message: { role: 'user', content: `use token ${secret} to deploy` },
    };
    await appendFile(files.claude as string, `{"type": "user", broken\n${JSON.stringify(prompt)}\n`);
    const run = JSON.parse((await runBin(['sessions', 'import', '--json'], workspace, env)).stdout) as ImportJson;
    expect(run).toMatchObject({ imported: 1, unchanged: 3, skipped_lines: 1 });
    const ledger = await openLedger({ spec: env.BATON_LEDGER as string, cwd: workspace });
    try {
      const record = await getAgentSession(ledger, 'claude-42d26d1b-3995-4735-bd1f-db7687b0bb86');
      expect(record?.data.lastPrompt).toContain('to deploy');
      expect(JSON.stringify(record)).not.toContain(secret);
      expect(record?.data.transcript?.skipped).toBe(1);
    } finally {
      await ledger.close();
    }
  });

  it('a session the hooks also recorded is one session: measured files and exit codes win, the transcript adds its failures, plan and ending', async () => {
    await layOutStores(home, workspace);
    const env = storeEnv(home);
    const ledger = await openLedger({ spec: env.BATON_LEDGER as string, cwd: workspace });
    try {
      const id = 'claude-42d26d1b-3995-4735-bd1f-db7687b0bb86';
      const hooked: AgentSessionData = {
        client: 'claude',
        clientSessionId: '42d26d1b-3995-4735-bd1f-db7687b0bb86',
        workspace,
        startedAt: Date.parse('2026-01-08T19:00:00Z'),
        lastActivityAt: Date.parse('2026-01-08T21:00:00Z'),
        starts: { startup: 1 },
        turns: 2,
        toolCalls: 3,
        compactions: 0,
        filesCreated: [],
        filesUpdated: ['measured.ts'],
        filesDeleted: [],
        failures: [{ command: 'npm test', exitCode: 2, at: 1, turn: 1 }],
        summary: 'hooks',
      };
      await ledger.createRecord('agent_sessions', { id, status: 'active', data: hooked });
      const result = await importSessions(ledger, { cwd: workspace, env });
      expect(result.records).toContain(id);
      const merged = (await getAgentSession(ledger, id))?.data;
      expect(merged?.filesUpdated).toEqual(['measured.ts']);
      // The measured failure stays as measured; the transcript's own failures are added beside it.
      expect(merged?.failures[0]).toEqual(hooked.failures[0]);
      expect(merged?.failures.length).toBeGreaterThan(1);
      expect(merged?.toolCalls).toBeGreaterThan(3);
      expect(merged?.startedAt).toBeLessThan(hooked.startedAt);
      expect(merged?.transcript?.ending).toBe('interrupted');
      const all = await ledger.listRecords<AgentSessionData>('agent_sessions', {});
      expect(all.items.filter((r) => r.data.clientSessionId === hooked.clientSessionId)).toHaveLength(1);
    } finally {
      await ledger.close();
    }
  });

  it("finds a session started in one of the repository's worktrees, and not one of a sibling folder", async () => {
    const env = storeEnv(home);
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    await git(['add', 'a.txt'], workspace);
    await git(['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'a'], workspace);
    const worktree = `${workspace}-wt`;
    await git(['worktree', 'add', '-q', worktree], workspace);
    const transcript = await readFile(CLAUDE_FIXTURE);
    for (const dir of [worktree, `${workspace}-other`]) {
      const file = path.join(
        env.CLAUDE_CONFIG_DIR as string,
        'projects',
        claudeProjectSlug(dir),
        '42d26d1b-3995-4735-bd1f-db7687b0bb86.jsonl',
      );
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, transcript);
    }
    const run = JSON.parse((await runBin(['sessions', 'import', '--json'], workspace, env)).stdout) as ImportJson;
    expect(run).toMatchObject({ found: 1, imported: 1 });
    await rm(worktree, { recursive: true, force: true });
  });

  it('names the field and the value for an unknown --client', async () => {
    const run = await runBin(['sessions', '--client', 'cursorx'], workspace, storeEnv(home));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--client must be one of claude, codex, gemini, copilot, opencode; got "cursorx"');
  });
});
