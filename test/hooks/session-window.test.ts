import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { claude } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('the window of sessions: empty ones neither recorded nor counted, the newest that worked kept', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('a session with no prompt and no tool call (`claude mcp list`) leaves no record; the session that failed stays in the next context and in status past 7 newer talk-only sessions', async () => {
    ws = makeHookWorkspace();
    const worker = { session: 'worker', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(worker));
    await ws.hook('claude', 'prompt', claude.prompt(worker, 'Make the tests pass'));
    await ws.hook('claude', 'post-tool', claude.bashFailure(worker, 'npm test', 1, 'Error: expected 2'));
    await ws.hook('claude', 'stop', claude.stop(worker, 'The tests fail.'));
    await ws.hook('claude', 'session-end', claude.sessionEnd(worker));
    for (let i = 0; i < 7; i += 1) {
      const talk = { session: `talk-${i}`, cwd: ws.dir };
      await ws.hook('claude', 'session-start', claude.sessionStart(talk));
      await ws.hook('claude', 'prompt', claude.prompt(talk, `question ${i}`));
      await ws.hook('claude', 'stop', claude.stop(talk, 'An answer.'));
      await ws.hook('claude', 'session-end', claude.sessionEnd(talk));
    }
    for (let i = 0; i < 6; i += 1) {
      const empty = { session: `empty-${i}`, cwd: ws.dir };
      await ws.hook('claude', 'session-start', claude.sessionStart(empty));
      await ws.hook('claude', 'session-end', claude.sessionEnd(empty));
      expect(await ws.session(`claude-empty-${i}`)).toBeUndefined();
    }

    const context = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'next', cwd: ws.dir })));
    expect(context).toContain('`npm test` exited 1');
    expect(context).toContain('question 6');
    expect(context).not.toContain('empty-');
    const status = await runBaton(['status', '--json'], { cwd: ws.dir });
    expect(status.stdout).toContain('claude-worker');
    expect(status.stdout).not.toContain('claude-empty-');
  });
});
