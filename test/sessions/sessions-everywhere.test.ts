import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../../src/workspace/index.js';
import { tempDir } from '../helpers/cli.js';
import { writeFailedCodexRollout } from './failed-codex-rollout.js';
import { CODEX_FIXTURE, runBin, storeEnv } from './session-stores-helper.js';

describe('one source of sessions: a Codex session whose hooks never ran reaches status and refresh', () => {
  let home: string;
  let workspace: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const t = await tempDir('baton-everywhere-');
    cleanup = t.cleanup;
    home = path.join(t.dir, 'home');
    workspace = path.join(t.dir, 'project');
    await mkdir(workspace, { recursive: true });
    await git(['init', '-q'], workspace);
    const [first, ...rest] = (await readFile(CODEX_FIXTURE, 'utf8')).split('\n');
    const head = JSON.parse(first as string) as { payload: { cwd: string } };
    head.payload.cwd = workspace;
    const dir = path.join(home, 'codex', 'sessions', '2026', '02', '10');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'rollout-2026-02-10T04-57-33-019c45b2-846a-7fa1-9ed7-42354e9982fd.jsonl'),
      [JSON.stringify(head), ...rest].join('\n'),
    );
  });
  afterAll(() => cleanup());

  it('baton status lists it, and baton refresh tells of it', async () => {
    const env = storeEnv(home);
    const status = await runBin(['status', '--json'], workspace, env);
    expect(status.stderr).toBe('');
    const sessions = (JSON.parse(status.stdout) as { agent_sessions: Array<{ id: string; data: { client: string } }> }).agent_sessions;
    expect(sessions.map((s) => s.id)).toContain('codex-019c45b2-846a-7fa1-9ed7-42354e9982fd');
    const refresh = await runBin(['refresh', '--format', 'detailed'], workspace, env);
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toContain('Codex');
    expect(refresh.stdout).toContain('019c45b2');
  });
});

describe("refresh's continuation prompt takes its next step from the newest session when no task is active", () => {
  let home: string;
  let workspace: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const t = await tempDir('baton-next-step-');
    cleanup = t.cleanup;
    home = path.join(t.dir, 'home');
    workspace = path.join(t.dir, 'project');
    await mkdir(workspace, { recursive: true });
    await git(['init', '-q'], workspace);
  });
  afterAll(() => cleanup());

  it('without sessions: the old "pick or create a task" step', async () => {
    const refresh = await runBin(['refresh'], workspace, storeEnv(home));
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toContain('No task is active');
    expect(refresh.stdout).toContain('Pick the next task');
    expect(refresh.stdout).not.toContain('npm test');
  });

  it('with a Codex session whose last command failed: names the failure and the fix first', async () => {
    const env = storeEnv(home);
    await writeFailedCodexRollout(env.CODEX_HOME as string, workspace);
    const refresh = await runBin(['refresh'], workspace, env);
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toContain('from the latest codex session');
    expect(refresh.stdout).toContain('`npm test` exited 1. Find out why it fails and fix it');
    expect(refresh.stdout.indexOf('npm test')).toBeLessThan(refresh.stdout.indexOf('Pick the next task'));
  });
});
