/**
 * Baton's hooks inside the real agent CLIs (pinned: Claude Code 2.1.197, Gemini CLI 0.61.0, Codex
 * CLI 0.171.0), headless, each against the scripted model server, installed with `baton hooks
 * install` into a project that has Baton as a dev dependency (node_modules/.bin/baton). For each:
 * a session whose model writes a file and runs a failing command with the client's own tools; a
 * NEW session whose first model request carries that file and that failure (which only Baton
 * could have put there); a resume that carries Baton's context once and not twice; and, where it
 * can be triggered headless (Claude's `/compact`, Codex's auto-compaction), a compaction after
 * which the next request carries Baton's context. Then hooks that hang or fail: the client's run
 * and its model requests are the same as without hooks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_TITLE } from '../../src/hooks/index.js';
import { type AgentSessionData, type LedgerRecord, openLedger } from '../../src/ledger/index.js';
import { type AgentCli, type AgentCliName, ensureClients, prepareAgentCli, runProcess } from '../helpers/agent-clis/index.js';
import { runBaton } from '../helpers/cli.js';
import {
  clientTools,
  fail,
  type ModelRequestView,
  type ModelServer,
  type Respond,
  say,
  startModelServer,
} from '../helpers/model-server/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENTS = ['claude', 'gemini', 'codex'] as const satisfies readonly AgentCliName[];
const TEST_TIMEOUT_MS = 900_000;
const MISSING_DIR = '/nonexistent-baton-dir';
const FAILURE = `\`ls ${MISSING_DIR}\` exited 2`;
const cleanups: Array<() => void> = [];
let available: Partial<Record<AgentCliName, string>> = {};

beforeAll(async () => {
  available = await ensureClients(CLIENTS, 'hooks');
}, 900_000);
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

/** A user's project: a git repository with Baton installed as a dev dependency (its bin linked). */
function project(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-hooks-real-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(path.join(ROOT, 'bin', 'baton.js'), path.join(dir, 'node_modules', '.bin', 'baton'));
  writeFileSync(path.join(dir, '.gitignore'), '.baton/\nnode_modules/\n.claude/\n.gemini/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'start');
  return dir;
}

/** Claude and Gemini: the project's settings; Codex: its CODEX_HOME (the test's throwaway one). */
async function install(cli: AgentCli, repo: string): Promise<void> {
  const scope = cli.name === 'codex' ? 'user' : 'project';
  const run = await runBaton(['hooks', 'install', '--client', cli.name, '--scope', scope], {
    cwd: repo,
    env: { HOME: cli.home, CODEX_HOME: cli.configDir },
  });
  expect(run.code, run.stderr).toBe(0);
}

/** Codex runs untrusted hooks only with this flag (in real use: trusted once through /hooks). */
function hookArgs(name: AgentCliName): string[] {
  return name === 'codex' ? ['--dangerously-bypass-hook-trust'] : [];
}

/** The client's session id from its headless output. */
function sessionIdOf(name: AgentCliName, stdout: string): string {
  const pattern = name === 'codex' ? /"thread_id":"([^"]+)"/ : /"session_id":\s*"([^"]+)"/;
  const id = pattern.exec(stdout)?.[1];
  if (!id) throw new Error(`no session id in ${name}'s output: ${stdout.slice(0, 500)}`);
  return id;
}

function resumeArgs(name: AgentCliName, id: string): string[] {
  if (name === 'claude') return ['--resume', id];
  if (name === 'gemini') return ['--resume', 'latest'];
  return ['resume', id];
}

/** How many Baton contexts one model request carries. */
const copies = (view: ModelRequestView | undefined) => (view?.text.split(CONTEXT_TITLE).length ?? 1) - 1;

/** A session that writes hello.txt and runs a failing `ls`, with the client's own tools. */
const workingSession: Respond = (view) => {
  const tools = clientTools(view.client);
  if (view.toolResults.length === 0) return tools.writeFile('hello.txt', 'hi\n');
  if (view.toolResults.length === 1) return tools.runShell(`ls ${MISSING_DIR}`);
  return say('Wrote hello.txt; the listing failed.');
};

interface Harness {
  repo: string;
  cli: AgentCli;
  /** Runs the client on `prompt` with `respond` scripting its model; returns the server (turns) and the run. */
  session(
    respond: Respond,
    prompt: string,
    extraArgs?: string[],
    env?: Record<string, string>,
  ): Promise<{ server: ModelServer; stdout: string }>;
  /** The same run, its exit code not checked (a run the model's API cuts off). */
  attempt(respond: Respond, prompt: string, env?: Record<string, string>): Promise<{ code: number | null; stdout: string }>;
}

async function harness(name: AgentCliName, options: { codexToml?: string; hooks?: boolean } = {}): Promise<Harness> {
  const repo = project();
  let respond: Respond = () => say('unused');
  const server = await startModelServer({ respond: (view) => respond(view) });
  cleanups.push(() => void server.close());
  const cli = await prepareAgentCli(name, { serverUrl: server.url, cwd: repo, codexToml: options.codexToml });
  cleanups.push(() => cli.cleanup());
  if (options.hooks !== false) await install(cli, repo);
  return {
    repo,
    cli,
    session: async (script, prompt, extraArgs = [], env = {}) => {
      const before = server.turns.length;
      respond = script;
      const run = await cli.run(prompt, { extraArgs: [...hookArgs(name), ...extraArgs], env });
      expect(run.code, `${cli.title}: ${run.stderr.slice(-2000)}\n${run.stdout.slice(-1000)}`).toBe(0);
      expect(server.problems).toEqual([]);
      const turns = server.turns.slice(before);
      return { server: { ...server, turns }, stdout: run.stdout };
    },
    attempt: async (script, prompt, env = {}) => {
      respond = script;
      const run = await cli.run(prompt, { extraArgs: hookArgs(name), env });
      return { code: run.code, stdout: run.stdout };
    },
  };
}

async function sessionRecord(repo: string, id: string): Promise<LedgerRecord<AgentSessionData> | undefined> {
  const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: repo });
  try {
    return await ledger.getRecord<AgentSessionData>('agent_sessions', id);
  } finally {
    await ledger.close();
  }
}

for (const name of CLIENTS) {
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

describe('after a compaction the next request carries Baton’s context', () => {
  it(
    'Claude Code: claude -p "/compact" --resume ID, then the next request',
    async (ctx) => {
      if (!available.claude) return ctx.skip();
      const h = await harness('claude');
      const first = await h.session(workingSession, 'Make hello.txt, then list the missing folder.');
      const id = sessionIdOf('claude', first.stdout);
      await h.session(() => say('Summary.'), '/compact', ['--resume', id]);
      const after = await h.session(() => say('Continuing.'), 'Continue where we were.', ['--resume', id]);
      const text = after.server.turns[0]?.text ?? '';
      expect(text).toContain('The conversation was just compacted');
      expect(text).toContain('created hello.txt');
      expect(text).toContain(FAILURE);
      expect((await sessionRecord(h.repo, `claude-${id}`))?.data.compactions).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'Codex CLI: its auto-compaction in the middle of a turn, then the next request',
    async (ctx) => {
      if (!available.codex) return ctx.skip();
      const h = await harness('codex', { codexToml: 'model_auto_compact_token_limit = 5000\nmodel_context_window = 20000' });
      let calls = 0;
      const { server } = await h.session((view) => {
        calls += 1;
        if (calls > 8) return say('Giving up.');
        if (view.text.includes('The conversation was just compacted')) return say('Back on track.');
        // The first call reports a long prompt: Codex compacts before it asks the model again.
        if (view.toolResults.length === 0)
          return { ...clientTools(view.client).runShell(`ls ${MISSING_DIR}`), usage: { inputTokens: 9_000 } };
        return say('Done.');
      }, 'List the missing folder.');
      const afterCompaction = server.turns.find((view) => view.text.includes(CONTEXT_TITLE));
      expect(afterCompaction?.text).toContain('The conversation was just compacted');
      expect(afterCompaction?.text).toContain(FAILURE);
    },
    TEST_TIMEOUT_MS,
  );
});

/** What a model request says, without what differs between any two runs (ids, times, process groups). */
function shape(view: ModelRequestView): unknown {
  // Gemini describes the folder (its temporary path, and the .baton/ and .gemini/ a hooked run has) first.
  const prompt = view.prompt.replace(/<session_context>[\s\S]*?<\/session_context>/, '<session_context/>');
  return { prompt, tools: view.toolResults.map((r) => [r.name, r.isError, r.exitCode]), baton: view.text.includes('Baton') };
}

describe('a hook that hangs or fails leaves the client’s run and its model requests unchanged', () => {
  for (const name of CLIENTS) {
    it(
      `${name}: the same requests with hooks that hang (an unanswering ledger) or fail (a broken one) as without hooks`,
      async (ctx) => {
        if (!available[name]) return ctx.skip();
        const prompt = 'Make hello.txt, then list the missing folder.';
        const without = await (await harness(name, { hooks: false })).session(workingSession, prompt);

        const sockets: Socket[] = [];
        const silent = createServer((socket) => sockets.push(socket));
        await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
        cleanups.push(() => {
          for (const socket of sockets) socket.destroy();
          silent.close();
        });
        const hanging = await harness(name);
        const hung = await hanging.session(workingSession, prompt, [], {
          BATON_LEDGER: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}/0`,
        });

        const failing = await harness(name);
        mkdirSync(path.join(failing.repo, '.baton', 'agent.db'));
        const failed = await failing.session(workingSession, prompt);

        expect(hung.server.turns.map(shape)).toEqual(without.server.turns.map(shape));
        expect(failed.server.turns.map(shape)).toEqual(without.server.turns.map(shape));
        expect(without.server.turns.map(shape).some((turn) => (turn as { baton: boolean }).baton)).toBe(false);
      },
      TEST_TIMEOUT_MS,
    );
  }
});

describe('sessions that did nothing are neither recorded nor counted', () => {
  it(
    'Claude Code: six `claude mcp list` runs (each fires SessionStart and SessionEnd) leave no record, and the next session still gets the failure',
    async (ctx) => {
      if (!available.claude) return ctx.skip();
      const h = await harness('claude');
      const first = await h.session(workingSession, 'Make hello.txt, then list the missing folder.');
      const firstId = sessionIdOf('claude', first.stdout);
      const states = () => readdirSync(path.join(h.repo, '.baton/hooks/sessions')).filter((name) => name.endsWith('.json'));
      const before = states().length;
      for (let i = 0; i < 6; i += 1) {
        const run = await runProcess(h.cli.bin, ['mcp', 'list'], { cwd: h.repo, env: h.cli.env, timeoutMs: 120_000 });
        expect(run.code, run.stderr).toBe(0);
      }
      // The hooks did fire: each run's SessionStart left its session's state file.
      expect(states().length).toBeGreaterThan(before);
      const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: h.repo });
      const ids = await ledger.listRecords('agent_sessions', { limit: 50 }).finally(() => ledger.close());
      expect(ids.items.map((record) => record.id)).toEqual([`claude-${firstId}`]);

      const next = await h.session(() => say('Noted.'), 'What is left to do here?');
      expect(next.server.turns[0]?.text).toContain(FAILURE);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a turn cut off by a usage limit', () => {
  it(
    'Claude Code: a 429 it gives up on fires StopFailure ("rate_limit"); the session ends as a usage limit, and the next session hears it first',
    async (ctx) => {
      if (!available.claude) return ctx.skip();
      const h = await harness('claude');
      const limited = await h.attempt(
        (view) => (view.toolResults.length === 0 ? clientTools(view.client).writeFile('hello.txt', 'hi\n') : fail(429, { retryAfter: 1 })),
        'Make hello.txt, then tell me about it.',
        { CLAUDE_CODE_MAX_RETRIES: '0' },
      );
      expect(limited.code).not.toBe(0);
      const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: h.repo });
      const records = await ledger.listRecords<AgentSessionData>('agent_sessions', { limit: 5 }).finally(() => ledger.close());
      expect(records.items[0]?.data).toMatchObject({ endReason: 'usage limit', cutOff: { error: 'rate_limit' } });
      expect(records.items[0]?.data.filesCreated).toContain('hello.txt');

      const next = await h.session(() => say('Noted.'), 'Carry on.');
      const body = (next.server.turns[0]?.text ?? '').split(CONTEXT_TITLE)[1] ?? '';
      expect(body).toContain('The last turn was cut off by a usage limit');
      expect(body.indexOf('cut off by a usage limit')).toBeLessThan(body.indexOf('## Sessions in this workspace'));
      expect(body).toContain('ended (usage limit)');
    },
    TEST_TIMEOUT_MS,
  );
});
