import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommandProvider } from '../../src/providers/index.js';
import { claude } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('a try `baton run` supervises (BATON_SUPERVISED)', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('is neither briefed nor recorded by the hooks, only linked to its task and try', async () => {
    ws = makeHookWorkspace();
    // Something to brief: an earlier session with a failure.
    const earlier = { session: 'earlier', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(earlier));
    await ws.hook('claude', 'post-tool', claude.bashFailure(earlier, 'npm test', 1, 'Error'));
    await ws.hook('claude', 'stop', claude.stop(earlier, 'Failed.'));

    const env = { BATON_SUPERVISED: '1', BATON_TASK_ID: 'fix-tests', BATON_ATTEMPT: '2' };
    const s = { session: 'supervised', cwd: ws.dir };
    expect(await ws.hook('claude', 'session-start', claude.sessionStart(s), { env })).toBe('');
    await ws.hook('claude', 'prompt', claude.prompt(s, 'the task prompt'), { env });
    ws.write('fixed.txt', 'x\n');
    await ws.hook('claude', 'post-tool', claude.bashFailure(s, 'npm test', 1, 'still failing'), { env });
    await ws.hook('claude', 'stop', claude.stop(s, 'Done.'), { env });
    await ws.hook('claude', 'session-end', claude.sessionEnd(s), { env });

    expect(await ws.turns('claude-supervised')).toEqual([]);
    const record = await ws.session('claude-supervised');
    expect(record?.data).toMatchObject({ supervised: { taskId: 'fix-tests', attempt: 2 }, turns: 0, toolCalls: 0 });
    // Its SessionEnd ends the linked record (it was left active until the abandoned-session sweep).
    expect(record?.status).toBe('ended');
    expect(record?.data.endedAt).toBeGreaterThan(0);
    expect(readdirSync(path.join(ws.dir, '.baton/hooks/sessions')).filter((name) => name.startsWith('claude-supervised'))).toEqual([]);
    // The next (unsupervised) session is told of the earlier one, not of the supervised try.
    const context = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'next', cwd: ws.dir })));
    expect(context).toContain('`npm test` exited 1');
    expect(context).not.toContain('supervis');
  });

  it('a command agent run by Baton sees BATON_SUPERVISED, BATON_TASK_ID and BATON_ATTEMPT', async () => {
    ws = makeHookWorkspace();
    const provider = createCommandProvider('probe', {
      type: 'command',
      command: [
        'node',
        '-e',
        'console.log([process.env.BATON_SUPERVISED, process.env.BATON_TASK_ID, process.env.BATON_ATTEMPT].join(","))',
      ],
    });
    const result = await provider.run({ prompt: 'p', cwd: ws.dir, timeoutMs: 30_000, taskId: 't1', attempt: 3 });
    expect(result.output).toContain('1,t1,3');
  });
});
