/**
 * `baton sessions` lists `baton run`'s supervised tries too (as `baton ui` does), marked with their
 * task and try, in text and `--json` (`supervised`); `--client` still filters them. A try the hooks
 * linked (BATON_SUPERVISED) holds no turn of its own, and a try imported from a client's store
 * whose first request is a Baton task prompt names its task, not its try.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { storeEnv } from '../sessions/session-stores-helper.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';
import { claude, gemini } from './helpers/payloads.js';

const IMPORTED_TRY = '019c0000-5555-7222-8333-444455556666';

interface Row {
  id: string;
  client: string;
  supervised: { task_id: string | null; attempt: number | null } | null;
}

/** A Codex rollout of a try `baton run` started without Baton's hooks: its first request is a task prompt. */
async function writeImportedTry(codexHome: string, workspace: string): Promise<void> {
  const at = (s: number) => `2026-02-01T09:00:${String(s).padStart(2, '0')}.000Z`;
  const lines = [
    { timestamp: at(0), type: 'session_meta', payload: { id: IMPORTED_TRY, timestamp: at(0), cwd: workspace, cli_version: '0.171.0' } },
    { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: '## Task ID\nparser\n\n## Task Description\nx' } },
  ];
  const dir = path.join(codexHome, 'sessions', '2026', '02', '01');
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, `rollout-2026-02-01T09-00-00-${IMPORTED_TRY}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
  );
}

describe('`baton sessions` and supervised tries', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('lists them marked with task and try, in text and --json, and --client filters them', async () => {
    ws = makeHookWorkspace();
    const env: NodeJS.ProcessEnv = {
      ...storeEnv(path.join(ws.dir, '.baton', 'home')),
      BATON_LEDGER: `sqlite:${path.join(ws.dir, '.baton', 'agent.db')}`,
    };
    const own = { session: 'own-session', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(own), { env });
    await ws.hook('claude', 'post-tool', claude.bashFailure(own, 'npm test', 1, 'Error'), { env });
    await ws.hook('claude', 'stop', claude.stop(own, 'Failed.'), { env });

    const tryEnv = { ...env, BATON_SUPERVISED: '1', BATON_TASK_ID: 'fix-tests', BATON_ATTEMPT: '2' };
    const tried = { session: 'supervised-try', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(tried), { env: tryEnv });
    await ws.hook('claude', 'session-end', claude.sessionEnd(tried), { env: tryEnv });
    const geminiTry = { session: 'gemini-try', cwd: ws.dir };
    await ws.hook('gemini', 'session-start', gemini.sessionStart(geminiTry), { env: { ...tryEnv, BATON_ATTEMPT: '3' } });
    await writeImportedTry(env.CODEX_HOME as string, ws.dir);

    const listed = await runBaton(['sessions', '--json'], { cwd: ws.dir, env });
    expect(listed.stderr).toBe('');
    const rows = listed.json<{ sessions: Row[] }>().sessions;
    const byId = new Map(rows.map((r) => [r.id, r.supervised]));
    expect(byId.get('claude-own-session')).toBeNull();
    expect(byId.get('claude-supervised-try')).toEqual({ task_id: 'fix-tests', attempt: 2 });
    expect(byId.get('gemini-gemini-try')).toEqual({ task_id: 'fix-tests', attempt: 3 });
    expect(byId.get(`codex-${IMPORTED_TRY}`)).toEqual({ task_id: 'parser', attempt: null });
    expect(rows).toHaveLength(4);

    const text = (await runBaton(['sessions'], { cwd: ws.dir, env })).stdout;
    const line = (client: string, id: string) =>
      text.split('\n').find((l) => l.startsWith(`  ${client.padEnd(7)} ${id.slice(0, 8)} `)) ?? '';
    expect(line('claude', 'supervised-try')).toContain('supervised: task fix-tests try 2');
    expect(line('gemini', 'gemini-try')).toContain('supervised: task fix-tests try 3');
    expect(line('codex', IMPORTED_TRY)).toContain('supervised: task parser');
    expect(line('claude', 'own-session')).toContain('[hooks]');
    expect(line('claude', 'own-session')).not.toContain('supervised');

    const onlyClaude = await runBaton(['sessions', '--client', 'claude', '--json'], { cwd: ws.dir, env });
    expect(onlyClaude.json<{ sessions: Row[] }>().sessions.map((r) => r.id)).toEqual(
      expect.arrayContaining(['claude-own-session', 'claude-supervised-try']),
    );
    expect(onlyClaude.json<{ sessions: Row[] }>().sessions).toHaveLength(2);
    const onlyGemini = await runBaton(['sessions', '--client', 'gemini', '--json'], { cwd: ws.dir, env });
    expect(onlyGemini.json<{ sessions: Row[] }>().sessions.map((r) => r.id)).toEqual(['gemini-gemini-try']);

    const shown = await runBaton(['sessions', 'show', 'claude-supervised-try'], { cwd: ws.dir, env });
    expect(shown.stdout).toContain('Supervised: task fix-tests try 2 of baton run');
  });
});
