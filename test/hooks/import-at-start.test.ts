import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILED_CODEX_ID, writeFailedCodexRollout } from '../sessions/failed-codex-rollout.js';
import { runHookBin } from './helpers/hook-bin.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';
import { claude } from './helpers/payloads.js';

describe('the session-start hook imports what is new in the agent CLIs’ stores', () => {
  let ws: HookWorkspace;
  let home: string;
  afterEach(() => {
    ws?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('a Codex session whose hooks never ran reaches the next Claude session’s context', async () => {
    ws = makeHookWorkspace();
    home = mkdtempSync(path.join(os.tmpdir(), 'baton-stores-'));
    const env = { HOME: home, CODEX_HOME: path.join(home, 'codex'), CLAUDE_CONFIG_DIR: path.join(home, 'claude') };
    const start = (session: string) =>
      runHookBin(
        ['hook', 'session-start', '--client', 'claude'],
        JSON.stringify(claude.sessionStart({ session, cwd: ws.dir })),
        ws.dir,
        env,
      );

    const before = await start('claude-before');
    expect(before.code).toBe(0);
    expect(before.stdout).not.toContain('npm test');

    await writeFailedCodexRollout(env.CODEX_HOME, ws.dir);
    const after = await start('claude-after');
    expect(after.code).toBe(0);
    const context = ws.context(after.stdout) ?? '';
    expect(context).toContain('`npm test` exited 1');
    expect((await ws.session(`codex-${FAILED_CODEX_ID}`))?.data.client).toBe('codex');
  });
});
