/**
 * A try `baton run` supervised, as the real hook links it (BATON_SUPERVISED, BATON_TASK_ID,
 * BATON_ATTEMPT at SessionStart), in baton ui: the Agent sessions view marks it supervised and
 * links its task; its page says the attempt records its work.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startUiServer } from '../../src/ui/index.js';
import { type HookWorkspace, makeHookWorkspace } from '../hooks/helpers/hook-workspace.js';
import { claude } from '../hooks/helpers/payloads.js';

describe('a supervised try in baton ui', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('is marked supervised and links to its task and attempt', async () => {
    ws = makeHookWorkspace();
    const env = { BATON_SUPERVISED: '1', BATON_TASK_ID: 'fix-tests', BATON_ATTEMPT: '2' };
    await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'try-1', cwd: ws.dir }), { env });
    await ws.withLedger(async (ledger) => {
      const ui = await startUiServer({ ledger, port: 0, workspace: ws.dir });
      try {
        const list = await (await fetch(`${ui.url}sessions`)).text();
        expect(list).toContain(
          '<span class="badge supervised">supervised</span> <a href="/tasks/fix-tests">task fix-tests</a>, attempt 2.',
        );
        const page = await (await fetch(`${ui.url}sessions/claude-try-1`)).text();
        expect(page).toContain('Run by <code>baton run</code> as <a href="/tasks/fix-tests">task fix-tests</a>, attempt 2');
      } finally {
        await ui.close();
      }
    });
  });
});
