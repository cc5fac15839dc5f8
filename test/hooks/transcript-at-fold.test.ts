import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILED_CODEX_ID, writeFailedCodexRollout } from '../sessions/failed-codex-rollout.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';
import { claude, codex } from './helpers/payloads.js';

/*
 * `baton hooks install` registers no per-prompt or per-tool-call event any more (issue 37): the fold
 * at the end of a turn reads the session's own transcript. These run only the events installed now.
 */
describe('the fold at the end of a turn reads the session’s own transcript', () => {
  let ws: HookWorkspace;
  let home: string;
  afterEach(() => {
    ws?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('Codex with SessionStart, Stop and SessionEnd only: the prompt, the call and its exit code reach the record and the next session', async () => {
    ws = makeHookWorkspace();
    // An empty store: the next session start's own import must not be what finds it.
    home = mkdtempSync(path.join(os.tmpdir(), 'baton-rollout-'));
    const rollout = await writeFailedCodexRollout(home, ws.dir);
    const s = { session: FAILED_CODEX_ID, cwd: ws.dir };
    const env = { ...process.env, HOME: home, CODEX_HOME: path.join(home, 'empty'), CLAUDE_CONFIG_DIR: path.join(home, 'empty') };
    await ws.hook('codex', 'session-start', codex.sessionStart(s, 'startup', rollout), { env });
    ws.write('parser.ts', 'export {}\n');
    await ws.hook('codex', 'stop', codex.stop(s, rollout), { env });

    const record = (await ws.session(`codex-${FAILED_CODEX_ID}`))?.data;
    expect(record).toMatchObject({ lastPrompt: 'make the parser tests pass', turns: 1, toolCalls: 1, filesCreated: ['parser.ts'] });
    expect(record?.failures.map((f) => [f.command, f.exitCode])).toEqual([['npm test', 1]]);
    expect(record?.summary).toContain('1 failed command (last: `npm test`, exit 1)');
    expect(record?.summary).toContain('active');

    await ws.hook(
      'codex',
      'session-end',
      { session_id: s.session, cwd: ws.dir, hook_event_name: 'SessionEnd', transcript_path: rollout },
      { env },
    );
    expect((await ws.session(`codex-${FAILED_CODEX_ID}`))?.data.endedAt).toBeDefined();

    const next = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'next', cwd: ws.dir }), { env })) ?? '';
    expect(next).toContain('`npm test` exited 1');
    expect(next).toContain('Last request: "make the parser tests pass"');
  });

  it('a session whose transcript holds no prompt and no tool call (a `claude mcp list`) makes no record', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'empty', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    await ws.hook('claude', 'session-end', { ...claude.sessionEnd(s), transcript_path: path.join(ws.dir, 'missing.jsonl') });
    expect(await ws.session('claude-empty')).toBeUndefined();
  });
});
