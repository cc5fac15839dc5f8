/**
 * The hooks' faults of issue 34 (items 2, 9, 10, 15, 18), each through the hook's own entry (the
 * in-process runHook, or the real `baton hook` process where the process is what matters).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { claude } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('the hooks’ faults (issue 34)', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('keeps the journals of two sessions whose ids reduce to the same file name apart (a/b and a_b)', async () => {
    ws = makeHookWorkspace();
    const slash = { session: 'a/b', cwd: ws.dir };
    const underscore = { session: 'a_b', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(slash));
    await ws.hook('claude', 'session-start', claude.sessionStart(underscore));
    await ws.hook('claude', 'post-tool', claude.bashFailure(slash, 'make one', 1, 'one failed'));
    await ws.hook('claude', 'post-tool', claude.bashFailure(underscore, 'make two', 2, 'two failed'));
    await ws.hook('claude', 'stop', claude.stop(slash));
    await ws.hook('claude', 'stop', claude.stop(underscore));
    expect((await ws.session('claude-a/b'))?.data.failures.map((f) => f.command)).toEqual(['make one']);
    expect((await ws.session('claude-a_b'))?.data.failures.map((f) => f.command)).toEqual(['make two']);
  });
});
