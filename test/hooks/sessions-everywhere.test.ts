import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTaskPrompt, loadPromptState } from '../../src/prompt/index.js';
import { startUiServer } from '../../src/ui/index.js';
import { runBaton } from '../helpers/cli.js';
import { claude } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

/** One finished Claude Code session that wrote a file and ran a failing command. */
async function recordSession(ws: HookWorkspace): Promise<void> {
  const s = { session: 'seen-everywhere', cwd: ws.dir };
  await ws.hook('claude', 'session-start', claude.sessionStart(s));
  await ws.hook('claude', 'prompt', claude.prompt(s, 'Add the CSV exporter'));
  ws.write('src/export.js', 'export const csv = () => "";\n');
  await ws.hook('claude', 'post-tool', claude.write(s, path.join(ws.dir, 'src/export.js'), ''));
  await ws.hook('claude', 'post-tool', claude.bashFailure(s, 'npm test', 1, 'FAIL export.test.js'));
  await ws.hook('claude', 'stop', claude.stop(s));
  await ws.hook('claude', 'session-end', claude.sessionEnd(s));
}

describe('an agent CLI session is seen by status, refresh, ui and the next task prompt', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('baton status lists it beside the runs, its turn among the dispatches', async () => {
    ws = makeHookWorkspace();
    await recordSession(ws);
    const text = await runBaton(['status'], { cwd: ws.dir });
    expect(text.stdout).toContain('Agent sessions (baton hooks):');
    expect(text.stdout).toContain(
      'claude-seen-everywhere ended: Claude Code session seen-eve: 1 turn, 2 tool calls; created src/export.js',
    );
    expect(text.stdout).toMatch(/claude-seen-everywhere #1 claude-code failed agent_error/);
    const json = (await runBaton(['status', '--json'], { cwd: ws.dir })).json<{ agent_sessions: Array<{ id: string; status: string }> }>();
    expect(json.agent_sessions.map((s) => [s.id, s.status])).toEqual([['claude-seen-everywhere', 'ended']]);
  });

  it('baton refresh shows the workspace’s recent sessions with their last request and failure', async () => {
    ws = makeHookWorkspace();
    await recordSession(ws);
    const run = await runBaton(['refresh', '--json'], { cwd: ws.dir });
    expect(run.code).toBe(0);
    const sessions = run.json<{ recent_sessions: Array<Record<string, string>> }>().recent_sessions;
    expect(sessions).toEqual([
      expect.objectContaining({
        id: 'claude-seen-everywhere',
        status: 'ended',
        last_request: 'Add the CSV exporter',
        last_failure: 'npm test (exit 1): FAIL export.test.js',
      }),
    ]);
    const minimal = await runBaton(['refresh', '--format', 'minimal', '--json'], { cwd: ws.dir });
    expect(minimal.json<{ last_session: string }>().last_session).toContain('created src/export.js');
  });

  it('the next baton run’s task prompt carries it in its READ-ONLY CONTEXT', async () => {
    ws = makeHookWorkspace();
    await recordSession(ws);
    const prompt = await ws.withLedger(async (ledger) =>
      buildTaskPrompt(
        { id: 't1', instructions: 'Finish the exporter', intent: '', acceptanceCriteria: [] },
        await loadPromptState(ledger),
        { workingDirectory: ws.dir },
      ),
    );
    expect(prompt).toContain('"recent_sessions"');
    expect(prompt).toContain('"session_id": "claude-seen-everywhere"');
    expect(prompt).toContain('"last_request": "Add the CSV exporter"');
    expect(prompt).toContain('1 failed command (last: `npm test`, exit 1)');
  });

  it('baton ui lists it and shows its turns and failed commands', async () => {
    ws = makeHookWorkspace();
    await recordSession(ws);
    await ws.withLedger(async (ledger) => {
      const ui = await startUiServer({ ledger, port: 0, workspace: ws.dir });
      try {
        const list = await (await fetch(`${ui.url}sessions`)).text();
        expect(list).toContain('href="/sessions/claude-seen-everywhere"');
        expect(list).toContain('created src/export.js');
        const one = await (await fetch(`${ui.url}sessions/claude-seen-everywhere`)).text();
        expect(one).toContain('<code>npm test</code> exited 1');
        expect(one).toContain('FAIL export.test.js');
        expect(one).toMatch(/<table id="turns">[\s\S]*2 tool calls; created src\/export.js/);
        expect((await fetch(`${ui.url}sessions/claude-nope`)).status).toBe(404);
        // The session's turns among the latest dispatches open the session (not "Task not found").
        const tasks = await (await fetch(ui.url)).text();
        const href = /<ul class="plain" id="recent-dispatches">[\s\S]*?href="([^"]*claude-seen-everywhere[^"]*)"/.exec(tasks)?.[1] ?? '';
        expect(href).toMatch(/^\/sessions\/claude-seen-everywhere#turn-\d+$/);
        const opened = await fetch(new URL(href, ui.url));
        expect(opened.status).toBe(200);
        expect(await opened.text()).toContain(`<tr id="${href.split('#')[1]}">`);
      } finally {
        await ui.close();
      }
    });
  });
});
