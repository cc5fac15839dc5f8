/**
 * `baton worker` imports the native sessions of the tries it supervises, as `baton run` does: a
 * real worker process in its own clone, the task's try a stand-in agent that leaves a Codex CLI
 * rollout (cwd: the worker's worktree, first request: the task prompt) in the worker's CODEX_HOME.
 * When the queued run ends, with no `baton sessions` in between, the ledger holds that session
 * once, imported, recorded under the worker's clone and linked to its task. Real Redis, BullMQ, git.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { agentSessionId, listAgentSessions, openLedger } from '../../src/ledger/index.js';
import { supervisedLink } from '../../src/prompt/index.js';
import { describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';
import { makeProject, startBaton } from '../scale/helpers.js';
import { cleanUp, cleanups, QUEUE_ENV, type Report, startProducer, waitForOutput, withRemote } from '../scale/queue-helpers.js';

const AGENT = path.resolve(import.meta.dirname, 'agents/session-writer.mjs');
const SESSION_ID = '019c0000-3737-7222-8333-444455556666';

await describeWithRedis("baton worker imports its tries' agent CLI sessions", () => {
  const namespaces: string[] = [];
  afterAll(() => cleanUp(namespaces));

  it('the Codex session a try left in the worker is imported once, under the clone, linked to its task', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'baton-worker-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const stores = {
      HOME: home,
      CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
      CODEX_HOME: path.join(home, 'codex'),
      GEMINI_CLI_HOME: path.join(home, 'gemini'),
      COPILOT_HOME: path.join(home, 'copilot'),
    };
    const project = makeProject([{ id: 'w1' }]);
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    // The stand-in agent of makeProject's config, swapped for one that also writes a Codex session.
    const startLog = path.join(home, 'starts.jsonl');
    writeFileSync(
      path.join(project.dir, 'baton.config.json'),
      JSON.stringify({
        providers: {
          stand_in: {
            type: 'command',
            command: [process.execPath, AGENT],
            env: { START_LOG: startLog, SESSION_ID, CODEX_HOME: stores.CODEX_HOME },
          },
        },
        priority: ['stand_in'],
      }),
    );
    const { clones } = withRemote(project, 1);
    const clone = clones[0] as string;
    const namespace = uniqueNamespace('worker-sessions');
    namespaces.push(namespace);
    // The worker reads the client stores of `home` (its HOME, CODEX_HOME…), where the agent writes.
    const worker = startBaton(['worker', '--ledger', REDIS_TEST_URL, '--config', 'baton.config.json'], {
      cwd: clone,
      env: { BATON_NAMESPACE: namespace, ...QUEUE_ENV, ...stores },
    });
    await waitForOutput(worker, /ready/, 60_000);
    try {
      const done = await startProducer(project, namespace).done;
      expect(done.code, done.stderr).toBe(0);
      expect((JSON.parse(done.stdout) as Report).tasks.map((t) => t.status)).toEqual(['completed']);
      const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
      try {
        const all = await listAgentSessions(ledger, { limit: 50, scan: 5000, includeSupervised: true, includeEmpty: true });
        const ours = all.filter((r) => r.data.clientSessionId === SESSION_ID);
        expect(ours.map((r) => r.id)).toEqual([agentSessionId('codex', SESSION_ID)]);
        const [record] = ours;
        expect(record?.data.origin).toBe('import');
        expect(realpathSync(record?.data.workspace ?? '')).toBe(realpathSync(clone));
        expect(record && supervisedLink(record)).toEqual({ taskId: 'w1' });
      } finally {
        await ledger.close();
      }
    } finally {
      worker.child.kill('SIGTERM');
      await worker.done;
    }
  });
});
