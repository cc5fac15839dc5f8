/**
 * A try `baton run` supervises, under the real Claude Code (pinned 2.1.197, behind the scripted
 * model server) with Baton's hooks installed in the project: it is briefed once (the task prompt,
 * no hook context beside it) and recorded once (the task's attempt; the hooks only link the
 * client's session to the task and try, and an import of Claude's own transcript afterwards keeps
 * it linked, never a second, independent session). Before the run, a session the user ran by hand
 * failed a command: the task prompt names it (the prompt reads sessions), and the next session
 * started by hand is briefed on that session, not on the supervised try.
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

const cleanups: Array<() => void | Promise<void>> = [];
let claudeBin: string | undefined;
beforeAll(async () => {
  claudeBin = (await ensureClients(['claude'], 'supervised-real-claude')).claude;
}, 900_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('baton run with Baton hooks installed in the real Claude Code', () => {
  it('briefs each supervised try once and records it once, as the task attempt linked to its session', async (ctx) => {
    if (!claudeBin) return ctx.skip();
    const repo = supervisedProject('.claude', cleanups);
    const server: ModelServer = await startModelServer({ respond: supervisedScript(repo) });
    cleanups.push(() => server.close());
    const cli: AgentCli = await prepareAgentCli('claude', { serverUrl: server.url, cwd: repo });
    cleanups.push(() => cli.cleanup());
    const install = await runBaton(['hooks', 'install', '--client', 'claude', '--scope', 'project'], {
      cwd: repo,
      env: { HOME: cli.home },
    });
    expect(install.code, install.stderr).toBe(0);

    // 1. A session by hand: its `ls` fails, and the hooks record it.
    const byHand = await cli.run('Please list the missing folder.');
    expect(byHand.code, byHand.stderr.slice(-2000)).toBe(0);

    // 2. baton run, the real Claude Code as its agent (only the environment its set-up adds).
    writeFileSync(
      path.join(repo, 'baton.config.json'),
      JSON.stringify({ providers: { agent: { type: 'claude', binary: claudeBin, env: cli.ownEnv } }, priority: ['agent'] }),
    );
    const before = server.turns.length;
    const run = await runProcess(process.execPath, [BATON, 'run', 'plan.yaml', '--config', 'baton.config.json', '--json'], {
      cwd: repo,
      env: { ...cleanEnvironment(), HOME: cli.home, BATON_LOG_LEVEL: 'warn' },
      timeoutMs: 600_000,
    });
    expect(run.code, `${run.stderr.slice(-3000)}\n${run.stdout.slice(-2000)}`).toBe(0);
    expect(server.problems).toEqual([]);
    const tryTurns = server.turns.slice(before);
    expect(tryTurns.length).toBeGreaterThan(0);
    for (const turn of tryTurns) {
      // Briefed once: the task prompt, and no hook context beside it.
      expect(copies(turn.text, '## Task ID\ndone-file')).toBe(1);
      expect(copies(turn.text, CONTEXT_TITLE)).toBe(0);
    }
    // The task prompt reads sessions: the hand-run session's failed command is in it.
    expect(tryTurns[0]?.text).toContain(`ls ${MISSING_DIR}`);

    // Recorded once: the task's attempt; the client session is only linked to it.
    const recorded = await readLedger(repo, async (ledger) => {
      const attempts = (await ledger.listDispatches({ taskId: 'done-file', limit: 10 })).items;
      const sessions = (await ledger.listRecords<AgentSessionData>('agent_sessions', { limit: 50 })).items;
      const linked = sessions.filter((s) => s.data.supervised !== undefined);
      const turnsOfLinked = await Promise.all(linked.map(async (s) => (await ledger.listDispatches({ taskId: s.id, limit: 10 })).items));
      return { attempts, sessions, linked, turnsOfLinked };
    });
    expect(recorded.attempts.map((d) => [d.attempt, d.status, d.filesCreated])).toEqual([[1, 'completed', ['done.txt']]]);
    expect(recorded.linked.map((s) => s.data.supervised)).toEqual([{ taskId: 'done-file', attempt: 1 }]);
    expect(recorded.turnsOfLinked).toEqual([[]]);
    const supervisedId = (recorded.linked[0] as LedgerRecord<AgentSessionData>).id;

    // 3. An import of Claude's own transcripts (baton sessions) keeps the try linked, not a second
    // session, and lists it marked with its task and try.
    await expectListedAsTry(repo, cli.home, supervisedId);

    // 4. The next session by hand is briefed on the hand-run session, not on the supervised try.
    const nextTurns = server.turns.length;
    const next = await cli.run('What is left to do here?');
    expect(next.code, next.stderr.slice(-2000)).toBe(0);
    const opening = server.turns[nextTurns]?.text ?? '';
    expect(copies(opening, CONTEXT_TITLE)).toBe(1);
    expect(opening).toContain(`\`ls ${MISSING_DIR}\` exited 2`);
    expect(opening).not.toContain(supervisedId.replace(/^claude-/, '').slice(0, 8));
  }, 900_000);
});
