/**
 * A try `baton run` supervises, under the real Codex CLI (pinned 0.171.0) and Gemini CLI (0.61.0),
 * each behind the scripted model server, with Baton's hooks installed (Codex: in its CODEX_HOME,
 * run with `--dangerously-bypass-hook-trust` as a user's trust through /hooks would; Gemini: the
 * project's settings). As for Claude Code (supervised-real-claude.test.ts): it is briefed once (the
 * task prompt, no hook context beside it) and recorded once (the task's attempt; the hooks only link
 * the client's session to the task and try, and an import of the client's own session file
 * afterwards keeps it linked). `baton sessions` lists it marked; before the run a session by hand
 * failed a command: the task prompt names it, and the next session by hand is briefed on that
 * session, not on the supervised try.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_TITLE } from '../../src/hooks/index.js';
import type { AgentSessionData, LedgerRecord } from '../../src/ledger/index.js';
import { type AgentCli, cleanEnvironment, ensureClients, prepareAgentCli, runProcess } from '../helpers/agent-clis/index.js';
import { runBaton } from '../helpers/cli.js';
import {
  BATON,
  copies,
  expectListedAsTry,
  MISSING_DIR,
  readLedger,
  supervisedProject,
  supervisedScript,
} from '../helpers/supervised-project.js';
import { type ModelServer, startModelServer } from '../helpers/model-server/index.js';

const CLIENTS = ['codex', 'gemini'] as const;
type Client = (typeof CLIENTS)[number];

const cleanups: Array<() => void | Promise<void>> = [];
let bins: Partial<Record<Client, string>> = {};
beforeAll(async () => {
  bins = await ensureClients(CLIENTS, 'supervised-real-clis');
}, 900_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Codex runs untrusted hooks only with this flag (in real use: trusted once through /hooks). */
const hookArgs = (name: Client) => (name === 'codex' ? ['--dangerously-bypass-hook-trust'] : []);

/** Claude and Gemini: the project's settings; Codex: its CODEX_HOME (the test's throwaway one). */
async function installHooks(cli: AgentCli, repo: string): Promise<void> {
  const scope = cli.name === 'codex' ? 'user' : 'project';
  const install = await runBaton(['hooks', 'install', '--client', cli.name, '--scope', scope], {
    cwd: repo,
    env: { ...process.env, HOME: cli.home, CODEX_HOME: cli.configDir },
  });
  expect(install.code, install.stderr).toBe(0);
}

/** `baton run` with the real client as its agent (only the environment its set-up adds); the try's model turns. */
async function runPlanWith(name: Client, cli: AgentCli, repo: string, server: ModelServer) {
  writeFileSync(
    path.join(repo, 'baton.config.json'),
    JSON.stringify({
      providers: { agent: { type: name, binary: bins[name], env: cli.ownEnv, args: hookArgs(name) } },
      priority: ['agent'],
    }),
  );
  const before = server.turns.length;
  const run = await runProcess(process.execPath, [BATON, 'run', 'plan.yaml', '--config', 'baton.config.json', '--json'], {
    cwd: repo,
    env: { ...cleanEnvironment(), HOME: cli.home, BATON_LOG_LEVEL: 'warn' },
    timeoutMs: 600_000,
  });
  expect(run.code, `${run.stderr.slice(-3000)}\n${run.stdout.slice(-2000)}`).toBe(0);
  expect(server.problems).toEqual([]);
  return server.turns.slice(before);
}

async function recordedTry(repo: string) {
  return readLedger(repo, async (ledger) => {
    const attempts = (await ledger.listDispatches({ taskId: 'done-file', limit: 10 })).items;
    const sessions = (await ledger.listRecords<AgentSessionData>('agent_sessions', { limit: 50 })).items;
    const linked = sessions.filter((s) => s.data.supervised !== undefined);
    const turnsOfLinked = await Promise.all(linked.map(async (s) => (await ledger.listDispatches({ taskId: s.id, limit: 10 })).items));
    return { attempts, linked, turnsOfLinked };
  });
}

// The clients run at once: own projects, model servers and homes.
describe.concurrent('baton run with Baton hooks installed in a real client', () => {
  for (const name of CLIENTS) {
    describe(`baton run with Baton hooks installed in the real ${name}`, () => {
      it('briefs each supervised try once and records it once, as the task attempt linked to its session', async (ctx) => {
        if (!bins[name]) return ctx.skip();
        const repo = supervisedProject('.gemini', cleanups);
        const server: ModelServer = await startModelServer({ respond: supervisedScript(repo) });
        cleanups.push(() => server.close());
        const cli: AgentCli = await prepareAgentCli(name, { serverUrl: server.url, cwd: repo });
        cleanups.push(() => cli.cleanup());
        await installHooks(cli, repo);

        // 1. A session by hand: its `ls` fails, and the hooks record it.
        const byHand = await cli.run('Please list the missing folder.', { extraArgs: hookArgs(name) });
        expect(byHand.code, byHand.stderr.slice(-2000)).toBe(0);

        // 2. baton run: each model turn of the try is briefed once, by the task prompt, which names the hand-run failure.
        const tryTurns = await runPlanWith(name, cli, repo, server);
        expect(tryTurns.length).toBeGreaterThan(0);
        for (const turn of tryTurns) {
          expect(copies(turn.text, '## Task ID\ndone-file')).toBe(1);
          expect(copies(turn.text, CONTEXT_TITLE)).toBe(0);
        }
        expect(tryTurns[0]?.text).toContain(`ls ${MISSING_DIR}`);

        // Recorded once: the task's attempt; the client session is only linked to it.
        const recorded = await recordedTry(repo);
        expect(recorded.attempts.map((d) => [d.attempt, d.status, d.filesCreated])).toEqual([[1, 'completed', ['done.txt']]]);
        expect(recorded.linked.map((s) => s.data.supervised)).toEqual([{ taskId: 'done-file', attempt: 1 }]);
        expect(recorded.linked.map((s) => s.data.client)).toEqual([name]);
        expect(recorded.turnsOfLinked).toEqual([[]]);
        const supervisedId = (recorded.linked[0] as LedgerRecord<AgentSessionData>).id;

        // 3. An import of the client's own session files (baton sessions) keeps the try linked, not a
        // second session, and lists it marked with its task and try.
        await expectListedAsTry(repo, cli.home, supervisedId);

        // 4. The next session by hand is briefed on the hand-run session, not on the supervised try.
        const nextTurns = server.turns.length;
        const next = await cli.run('What is left to do here?', { extraArgs: hookArgs(name) });
        expect(next.code, next.stderr.slice(-2000)).toBe(0);
        const opening = server.turns[nextTurns]?.text ?? '';
        expect(copies(opening, CONTEXT_TITLE)).toBe(1);
        expect(opening).toContain(`\`ls ${MISSING_DIR}\` exited 2`);
        // One session listed: the hand-run one (ids are not compared: Codex's are time-ordered, so two
        // sessions of the same minute share their first 8 characters).
        const listedSessions = (opening.split('## Sessions in this workspace\n')[1]?.split('\n\n')[0] ?? '').split('\n');
        expect(listedSessions.filter((line) => line.startsWith('- '))).toHaveLength(1);
        expect(listedSessions.join('\n')).toContain('Last request: "Please list the missing folder."');
      }, 900_000);
    });
  }
});
