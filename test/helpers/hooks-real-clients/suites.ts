/**
 * The tests every real client gets (test/hooks/real-clients-*.test.ts): a session's file and
 * failure carried into resumes and the next session, and hooks that hang or fail leaving the
 * client's run unchanged.
 */
import { mkdirSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentCliName } from '../agent-clis/index.js';
import { type ModelRequestView, say } from '../model-server/index.js';
import {
  afterSuite,
  copies,
  FAILURE,
  harness,
  MISSING_DIR,
  resumeArgs,
  sessionIdOf,
  sessionRecord,
  TEST_TIMEOUT_MS,
  workingSession,
} from './harness.js';

/** A session, two resumes and a new session, in `name` with Baton's hooks. */
export function sessionCarrySuite(name: AgentCliName, available: Partial<Record<AgentCliName, string>>): void {
  describe(`Baton's hooks in ${name}`, () => {
    it(
      'records a session’s file and failure, carries its context into a resume once, and gives them to the next session’s first request',
      async (ctx) => {
        if (!available[name]) return ctx.skip();
        const h = await harness(name);
        const first = await h.session(workingSession, 'Make hello.txt, then list the missing folder.');
        const firstId = sessionIdOf(name, first.stdout);
        const record = await sessionRecord(h.repo, `${name}-${firstId}`);
        expect(record?.data.filesCreated).toContain('hello.txt');
        expect(record?.data.failures.map((f) => [f.command, f.exitCode])).toEqual([[`ls ${MISSING_DIR}`, 2]]);

        // A resume of it (Gemini resumes the latest session): Baton's context goes in once...
        const resumed = await h.session(() => say('Resumed.'), 'Carry on.', resumeArgs(name, firstId));
        expect(copies(resumed.server.turns[0])).toBe(1);
        expect(resumed.server.turns[0]?.text).toContain('This session was resumed');
        expect(resumed.server.turns[0]?.text).toContain('hello.txt (new, untracked)');
        // ...and a second resume with nothing changed adds no other copy to the history (Claude and
        // Codex keep the first; Gemini does not keep it, so it gets the context again).
        const again = await h.session(() => say('Again.'), 'Still there?', resumeArgs(name, firstId));
        expect(copies(again.server.turns[0])).toBe(1);

        // A NEW session: its very first model request carries the file and the failure.
        const second = await h.session(() => say('Noted.'), 'What is left to do here?');
        const opening = second.server.turns[0];
        expect(copies(opening)).toBe(1);
        expect(opening?.text).toContain('created hello.txt');
        expect(opening?.text).toContain(FAILURE);
        expect(opening?.text).toContain('Last request: "Still there?"');
      },
      TEST_TIMEOUT_MS,
    );
  });
}

/** What a model request says, without what differs between any two runs (ids, times, process groups). */
function shape(view: ModelRequestView): unknown {
  // Gemini describes the folder (its temporary path, and the .baton/ and .gemini/ a hooked run has) first.
  const prompt = view.prompt.replace(/<session_context>[\s\S]*?<\/session_context>/, '<session_context/>');
  return { prompt, tools: view.toolResults.map((r) => [r.name, r.isError, r.exitCode]), baton: view.text.includes('Baton') };
}

/** A TCP server that accepts connections and never answers (a Redis that hangs). */
async function silentServer(): Promise<string> {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  afterSuite(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
  return `redis://127.0.0.1:${(silent.address() as AddressInfo).port}/0`;
}

/** The same session without hooks, with hooks that hang and with hooks that fail: three runs at once. */
export function hangOrFailSuite(name: AgentCliName, available: Partial<Record<AgentCliName, string>>): void {
  describe('a hook that hangs or fails leaves the client’s run and its model requests unchanged', () => {
    it(
      `${name}: the same requests with hooks that hang (an unanswering ledger) or fail (a broken one) as without hooks`,
      async (ctx) => {
        if (!available[name]) return ctx.skip();
        const prompt = 'Make hello.txt, then list the missing folder.';
        const ledger = await silentServer();
        // Each run has its own project, home and model server: they do not collide.
        const [without, hung, failed] = await Promise.all([
          harness(name, { hooks: false }).then((h) => h.session(workingSession, prompt)),
          harness(name).then((h) => h.session(workingSession, prompt, [], { BATON_LEDGER: ledger })),
          harness(name).then((h) => {
            mkdirSync(path.join(h.repo, '.baton', 'agent.db'));
            return h.session(workingSession, prompt);
          }),
        ]);

        expect(hung.server.turns.map(shape)).toEqual(without.server.turns.map(shape));
        expect(failed.server.turns.map(shape)).toEqual(without.server.turns.map(shape));
        expect(without.server.turns.map(shape).some((turn) => (turn as { baton: boolean }).baton)).toBe(false);
      },
      TEST_TIMEOUT_MS,
    );
  });
}
