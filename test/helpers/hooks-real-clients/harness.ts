/**
 * The harness of the real-client hook suites (test/hooks/real-clients-*.test.ts): a user's project
 * with Baton linked as a dev dependency, the client pointed at the scripted model server with
 * Baton's hooks installed, and what its runs and its ledger say. Each suite file covers one client,
 * so the clients run on different test workers at once instead of one after another.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { CONTEXT_TITLE } from '../../../src/hooks/index.js';
import { type AgentSessionData, type LedgerRecord, openLedger } from '../../../src/ledger/index.js';
import { type AgentCli, type AgentCliName, ensureClients, prepareAgentCli } from '../agent-clis/index.js';
import { runBaton } from '../cli.js';
import { hookJobsDone, removeHookProject } from '../hook-jobs-done.js';
import { clientTools, type ModelRequestView, type ModelServer, type Respond, say, startModelServer } from '../model-server/index.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const TEST_TIMEOUT_MS = 900_000;
export const MISSING_DIR = '/nonexistent-baton-dir';
export const FAILURE = `\`ls ${MISSING_DIR}\` exited 2`;
const cleanups: Array<() => void | Promise<void>> = [];

/** Installs the suite's clients once (`beforeAll`) and removes every folder and server after it. */
export function useClients(names: readonly AgentCliName[], label: string): Partial<Record<AgentCliName, string>> {
  const available: Partial<Record<AgentCliName, string>> = {};
  beforeAll(async () => {
    Object.assign(available, await ensureClients(names, label));
  }, 900_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 120_000);
  return available;
}

/** Registers a cleanup run after the suite. */
export function afterSuite(cleanup: () => void): void {
  cleanups.push(cleanup);
}

/** A user's project: a git repository with Baton installed as a dev dependency (its bin linked). */
function project(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-hooks-real-'));
  cleanups.push(() => removeHookProject(dir));
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
export function sessionIdOf(name: AgentCliName, stdout: string): string {
  const pattern = name === 'codex' ? /"thread_id":"([^"]+)"/ : /"session_id":\s*"([^"]+)"/;
  const id = pattern.exec(stdout)?.[1];
  if (!id) throw new Error(`no session id in ${name}'s output: ${stdout.slice(0, 500)}`);
  return id;
}

export function resumeArgs(name: AgentCliName, id: string): string[] {
  if (name === 'claude') return ['--resume', id];
  if (name === 'gemini') return ['--resume', 'latest'];
  return ['resume', id];
}

/** How many Baton contexts one model request carries. */
export const copies = (view: ModelRequestView | undefined) => (view?.text.split(CONTEXT_TITLE).length ?? 1) - 1;

/** A session that writes hello.txt and runs a failing `ls`, with the client's own tools. */
export const workingSession: Respond = (view) => {
  const tools = clientTools(view.client);
  if (view.toolResults.length === 0) return tools.writeFile('hello.txt', 'hi\n');
  if (view.toolResults.length === 1) return tools.runShell(`ls ${MISSING_DIR}`);
  return say('Wrote hello.txt; the listing failed.');
};

export interface Harness {
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

export async function harness(name: AgentCliName, options: { codexToml?: string; hooks?: boolean } = {}): Promise<Harness> {
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
      await hookJobsDone(repo);
      expect(run.code, `${cli.title}: ${run.stderr.slice(-2000)}\n${run.stdout.slice(-1000)}`).toBe(0);
      expect(server.problems).toEqual([]);
      const turns = server.turns.slice(before);
      return { server: { ...server, turns }, stdout: run.stdout };
    },
    attempt: async (script, prompt, env = {}) => {
      respond = script;
      const run = await cli.run(prompt, { extraArgs: hookArgs(name), env });
      await hookJobsDone(repo);
      return { code: run.code, stdout: run.stdout };
    },
  };
}

export { hookJobsDone } from '../hook-jobs-done.js';

export async function sessionRecord(repo: string, id: string): Promise<LedgerRecord<AgentSessionData> | undefined> {
  await hookJobsDone(repo);
  const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: repo });
  try {
    return await ledger.getRecord<AgentSessionData>('agent_sessions', id);
  } finally {
    await ledger.close();
  }
}
