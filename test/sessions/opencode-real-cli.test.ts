import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCli, ensureClients, prepareAgentCli } from '../helpers/agent-clis/index.js';
import { clientTools, type ModelServer, say, startModelServer } from '../helpers/model-server/index.js';
import { runBin, storeEnv } from './session-stores-helper.js';

const TEST_TIMEOUT_MS = 600_000;
let bin: string | undefined;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  bin = (await ensureClients(['opencode'], 'opencode sessions')).opencode;
}, 900_000);
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

function repository(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-opencode-real-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'notes.txt'), 'hello old\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'start');
  return dir;
}

/** The scripted session: a plan, a shell call that fails, an edit, a new file, the plan updated, an answer. */
function scripted(repo: string): Promise<ModelServer> {
  return startModelServer({
    respond: (v) => {
      const tools = clientTools(v.client, { cwd: repo });
      const plan = (first: string) => ({
        tool: 'todowrite',
        args: {
          todos: [
            { content: 'Fix notes.txt', status: first, priority: 'high' },
            { content: 'Run the tests', status: 'pending', priority: 'medium' },
          ],
        },
      });
      const steps = [
        plan('in_progress'),
        tools.runShell('ls /nonexistent-baton-dir'),
        tools.editFile('notes.txt', 'old', 'new'),
        tools.writeFile('greet.js', 'export const hi = 1;\n'),
        plan('completed'),
      ];
      return steps[v.toolResults.length] ?? say('notes.txt fixed, greet.js added; the tests are still to run.');
    },
  });
}

describe('an OpenCode session the real OpenCode 1.18.33 writes, read back by `baton sessions`', () => {
  it(
    'lists it with its prompt, calls, failed command and exit code, files and open plan item',
    async (ctx) => {
      if (!bin) return ctx.skip();
      const repo = repository();
      const server = await scripted(repo);
      let cli: AgentCli | undefined;
      try {
        cli = await prepareAgentCli('opencode', { serverUrl: server.url, cwd: repo });
        const run = await cli.run('Fix notes.txt and add greet.js');
        expect(run.code, run.stderr.slice(-2000)).toBe(0);
        expect(server.problems).toEqual([]);
        expect(server.turns[0]?.client).toBe('opencode');
        expect(run.finalText).toBe('notes.txt fixed, greet.js added; the tests are still to run.');

        const env = { ...storeEnv(cli.home), XDG_DATA_HOME: '' };
        const listed = await runBin(['sessions', '--json', '--client', 'opencode'], repo, env);
        expect(listed.stderr).toBe('');
        const rows = (JSON.parse(listed.stdout) as { sessions: Array<Record<string, unknown>> }).sessions;
        expect(rows).toEqual([
          expect.objectContaining({ client: 'opencode', prompts: 1, calls: 5, files: 2, ending: 'normal', source: 'import' }),
        ]);
        expect(rows[0]?.session_id).toMatch(/^ses_/);
        expect(rows[0]?.model).toBe('scripted/scripted-model');
        const show = await runBin(['sessions', 'show', String(rows[0]?.session_id)], repo, env);
        expect(show.stdout).toContain('Task: Fix notes.txt and add greet.js');
        expect(show.stdout).toContain('Failed: ls /nonexistent-baton-dir (exit 2)');
        expect(show.stdout).toContain('Open: Run the tests');
        expect(show.stdout).toMatch(/Files: .*notes\.txt/);
      } finally {
        cli?.cleanup();
        await server.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
