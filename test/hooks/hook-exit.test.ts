import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DEADLINES_MS } from '../../src/hooks/index.js';
import { claude } from './helpers/payloads.js';
import { runHookBin } from './helpers/hook-bin.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('the hook process exits once its answer is out', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('against an unresponsive Redis ledger (a local TCP server that accepts and never answers), session-end exits within its deadline plus start-up, not when the Redis client gives up', async () => {
    ws = makeHookWorkspace();
    // A "Redis" that accepts connections and never answers: every ledger call hangs.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const run = await runHookBin(
        ['hook', 'session-end', '--client', 'claude'],
        JSON.stringify(claude.sessionEnd({ session: 'stuck', cwd: ws.dir })),
        ws.dir,
        // In the hook's own process (BATON_HOOK_WAIT=1): by default a detached child folds (hook-jobs.ts).
        { BATON_LEDGER: `redis://127.0.0.1:${port}/0`, BATON_HOOK_WAIT: '1' },
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      // The deadline (1.2 s) + 100 ms after the answer, plus a generous 2 s for node's start-up on a
      // loaded machine: well under the ~5.8 s the Redis client kept the process alive before.
      expect(run.exitedAt - started).toBeLessThan(DEFAULT_DEADLINES_MS['session-end'] + 100 + 2_000);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
