import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CLI_PACKAGES, type AgentCli, type AgentCliName, ensureClients, prepareAgentCli } from './agent-clis/index.js';
import { clientTools, fail, type ModelRequestView, type ModelServer, type Respond, say, startModelServer } from './model-server/index.js';

// One real agent CLI at its pinned version, headless, pointed at the scripted model server through
// env and config only (dummy keys, no login, no network): the model is the only stand-in. Proves
// the shared helpers that the real-CLI suites build on: the client's own file and shell tools run,
// their results (a failing command's exit code included) come back to the model, a prompt starting
// with `---` reaches the model verbatim, and a 429 is retried inside the client. Each client has its
// own agent-clis-NAME.test.ts, so the four run on different test workers at once.

const RUN_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 420_000;
const FINAL = 'All scripted steps done.';
const MARKER = '--- RETRY CONTEXT ---';
const cleanups: Array<() => void> = [];

/** A fresh git repository with one commit, removed after the suite. */
function gitRepo(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-agent-cli-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'start');
  return dir;
}

async function withCli<T>(
  name: AgentCliName,
  respond: Respond,
  body: (cli: AgentCli, server: ModelServer, repo: string) => Promise<T>,
): Promise<T> {
  const repo = gitRepo();
  const server = await startModelServer({ respond });
  const cli = await prepareAgentCli(name, { serverUrl: server.url, cwd: repo });
  try {
    return await body(cli, server, repo);
  } finally {
    cli.cleanup();
    await server.close();
  }
}

/** The suite of one client: its tools, a `---` prompt by argument and on stdin, a 429 retried. */
export function agentCliSuite(name: AgentCliName): void {
  let available: Partial<Record<AgentCliName, string>> = {};
  beforeAll(async () => {
    available = await ensureClients([name], 'agent-clis');
  }, 900_000);
  afterAll(() => {
    for (const cleanup of cleanups) cleanup();
  });

  const { title, version } = AGENT_CLI_PACKAGES[name];
  describe(`${title} ${version} against the scripted model server`, () => {
    it(
      'writes a file and runs a failing and a passing command with its own tools; each result reaches the model',
      async (ctx) => {
        if (!available[name]) return ctx.skip();
        let repo = '';
        const respond = (view: ModelRequestView) => {
          const tools = clientTools(view.client, { cwd: repo });
          const done = view.toolResults.length;
          if (done === 0) return tools.writeFile('greet.js', 'export const greet = (name) => `hi ${name}`;\n');
          if (done === 1) return tools.runShell('node -e "process.exit(3)"');
          if (done === 2) return tools.runShell('node -e "console.log(6 * 7)"');
          return say(FINAL);
        };
        await withCli(name, respond, async (cli, server, dir) => {
          repo = dir;
          const run = await cli.run(`${MARKER}\nWrite greet.js, then run the checks.`, { timeoutMs: RUN_TIMEOUT_MS });
          expect(run.code, `${run.stderr.slice(-1500)}\n${run.stdout.slice(-1500)}`).toBe(0);
          expect(run.finalText).toBe(FINAL);
          expect(server.problems).toEqual([]);
          expect(readFileSync(path.join(dir, 'greet.js'), 'utf8')).toBe('export const greet = (name) => `hi ${name}`;\n');
          const [first] = server.turns;
          expect(first?.client).toBe(name);
          expect(first?.text, 'the prompt reached the model verbatim').toContain(`${MARKER}\nWrite greet.js, then run the checks.`);
          const last = server.turns.at(-1) as ModelRequestView;
          expect(last.toolResults).toHaveLength(3);
          const [written, failed, passed] = last.toolResults;
          expect(written?.isError).toBe(false);
          expect(failed?.isError, failed?.text).toBe(true);
          expect(failed?.exitCode, failed?.text).toBe(3);
          expect(passed?.isError, passed?.text).toBe(false);
          expect(passed?.text).toContain('42');
        });
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'hands a prompt starting with --- to the model verbatim, as an argument and on stdin',
      async (ctx) => {
        if (!available[name]) return ctx.skip();
        const prompt = `${MARKER}\nPrevious provider failed: rate_limited.\n--help`;
        const respond = (view: ModelRequestView) => say(view.text.includes(prompt) ? 'PROMPT-INTACT' : 'PROMPT-MANGLED');
        for (const promptVia of ['argv', 'stdin'] as const) {
          await withCli(name, respond, async (cli, server) => {
            const run = await cli.run(prompt, { promptVia, timeoutMs: RUN_TIMEOUT_MS });
            expect(run.code, `${promptVia}: ${run.stderr.slice(-1500)}`).toBe(0);
            expect(run.finalText, promptVia).toBe('PROMPT-INTACT');
            expect(server.turns.length, promptVia).toBeGreaterThan(0);
          });
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'retries a 429 (retry-after: 1) inside and exits 0 with the answer that followed',
      async (ctx) => {
        if (!available[name]) return ctx.skip();
        let calls = 0;
        const respond = () => (calls++ === 0 ? fail(429, { retryAfter: 1 }) : say('RECOVERED'));
        await withCli(name, respond, async (cli, server) => {
          const run = await cli.run('Say something.', { timeoutMs: RUN_TIMEOUT_MS });
          expect(run.code, run.stderr.slice(-1500)).toBe(0);
          expect(run.finalText).toBe('RECOVERED');
          const statuses = server.requests.filter((r) => r.view && !r.view.side).map((r) => r.status);
          expect(statuses).toEqual([429, 200]);
        });
      },
      TEST_TIMEOUT_MS,
    );
  });
}
