import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatch, openLedger } from '../../src/ledger/index.js';
import {
  type AgentCliName,
  AGENT_CLIS,
  cleanEnvironment,
  ensureClients,
  prepareAgentCli,
  runProcess,
} from '../helpers/agent-clis/index.js';
import { clientTools, type ModelRequestView, type ModelServer, say, startModelServer } from '../helpers/model-server/index.js';

/**
 * Issue 26's plan through `baton run` (the built CLI, a child process) with each real agent CLI at
 * its pinned version behind the scripted model server, which acts only on the prompt text it gets:
 *
 * 1. `limited` (a command provider) prints `429 Too Many Requests` and exits 1: rate_limited.
 * 2. The real CLI gets the PROVIDER SWITCH block; the model writes greet.js with the CLI's own
 *    file tool. Validation fails: `test -f test/greet.test.js`, and the criterion without a check
 *    goes to the helper (the same CLI), whose HELPER AGENT CONTEXT the model answers with a check.
 * 3. Attempt 2 carries the RETRY block naming the failures; the model fixes greet.js, writes the
 *    test and runs it through the CLI's shell tool. Validation passes.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const BATON = path.join(ROOT, 'bin/baton.js');

const GREET_V1 = "exports.greet = (name) => 'Hello ' + name;\n";
const GREET_V2 = "exports.greet = (name) => 'Hello, ' + name + '!';\n";
const TEST = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { greet } = require('../greet.js');",
  '',
  "test('greets by name', () => assert.strictEqual(greet('Ada'), 'Hello, Ada!'));",
  '',
].join('\n');
const UNCHECKED = 'greet("Ada") returns "Hello, Ada!"';
const HELPER_CHECK = `node -e "process.exit(require('./greet.js').greet('Ada') === 'Hello, Ada!' ? 0 : 1)"`;
const PLAN = `tasks:
  - id: greet
    title: Greeting module
    instructions: Create greet.js exporting greet(name), then a test in test/greet.test.js run with node --test.
    acceptance_criteria:
      - description: greet.js exists
        check: test -f greet.js
      - description: the test exists
        check: test -f test/greet.test.js
      - '${UNCHECKED}'
    retry_policy: { max_retries: 3 }
`;

/** The model: what it does depends only on the seam block its prompt starts with. */
function script(cwd: string) {
  return (v: ModelRequestView) => {
    const tools = clientTools(v.client, { cwd });
    const step = v.toolResults.length;
    if (v.text.includes('--- HELPER AGENT CONTEXT ---')) {
      return say(JSON.stringify({ commands: [{ criterion: UNCHECKED, command: HELPER_CHECK }] }));
    }
    if (v.text.includes('--- RETRY CONTEXT ---') && v.text.includes('test/greet.test.js')) {
      const steps = [
        // Claude Code edits only a file it has read in this session.
        ...(v.client === 'claude' ? [{ tool: 'Read', args: { file_path: path.join(cwd, 'greet.js') } }] : []),
        tools.editFile('greet.js', GREET_V1.trimEnd(), GREET_V2.trimEnd()),
        tools.writeFile('test/greet.test.js', TEST),
        tools.runShell('node --test test/greet.test.js'),
      ];
      return steps[step] ?? say('Fixed greet.js, added test/greet.test.js; node --test passes.');
    }
    if (v.text.includes('--- PROVIDER SWITCH CONTEXT ---'))
      return step === 0 ? tools.writeFile('greet.js', GREET_V1) : say('Wrote greet.js.');
    return say('This prompt carries no seam block: nothing to do.');
  };
}

interface Report {
  tasks: {
    id: string;
    status: string;
    attempts: {
      attempt: number;
      provider: string;
      outcome: string;
      files_created: string[];
      files_updated: string[];
      injected_context: string;
    }[];
  }[];
}

let found: Partial<Record<AgentCliName, string>> = {};
const made: string[] = [];
beforeAll(async () => {
  found = await ensureClients(AGENT_CLIS, 'seams-real-clis');
});
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A git repository with the plan and a baton.config.json: `limited` first, then the real CLI. */
function project(cliEnv: Record<string, string>, name: AgentCliName, bin: string): string {
  const repo = mkdtempSync(path.join(tmpdir(), `baton-seams-${name}-`));
  made.push(repo);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, '.gitignore'), 'state.db*\nplan.yaml\nbaton.config.json\n');
  writeFileSync(path.join(repo, 'plan.yaml'), PLAN);
  const config = {
    providers: {
      limited: { type: 'command', command: ['sh', '-c', 'echo "429 Too Many Requests"; exit 1'] },
      agent: { type: name, binary: bin, env: cliEnv },
    },
    priority: ['limited', 'agent'],
    helper: 'agent',
    // limited stays open for the whole run, so attempt 2 starts with the real CLI.
    breaker: { coolDownMs: 3_600_000 },
  };
  writeFileSync(path.join(repo, 'baton.config.json'), JSON.stringify(config, null, 2));
  mkdirSync(path.join(repo, 'test'));
  git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'initial');
  return repo;
}

/** What each injected block looked like at the model: the first request whose text holds it. */
function reachedModel(server: ModelServer, block: string): boolean {
  return server.requests.some((r) => r.view !== undefined && r.view.text.includes(block));
}

describe('baton run with the real agent CLIs: switch, retry and helper seams', () => {
  it.for(AGENT_CLIS)('%s', { timeout: 900_000 }, async (name, ctx) => {
    const bin = found[name];
    if (!bin) ctx.skip();
    const scratch = mkdtempSync(path.join(tmpdir(), 'baton-seams-cwd-'));
    made.push(scratch);
    let repo = '';
    const server = await startModelServer({ respond: (v) => script(repo)(v) });
    try {
      const cli = await prepareAgentCli(name, { serverUrl: server.url, cwd: scratch });
      made.push(cli.home);
      // Only what the CLI needs beyond a user's shell: its HOME and its model endpoint settings.
      repo = project(cli.ownEnv, name, bin!);
      if (name === 'codex') {
        // prepareAgentCli trusted the scratch folder; this run's workspace is the repo.
        execFileSync('sh', ['-c', `printf '\\n[projects.%s]\\ntrust_level = "trusted"\\n' '"${repo}"' >> "${cli.configDir}/config.toml"`]);
      }
      const run = await runProcess(
        process.execPath,
        [BATON, 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db', '--json'],
        {
          cwd: repo,
          env: { ...cleanEnvironment(), BATON_LOG_LEVEL: 'warn' },
          timeoutMs: 840_000,
        },
      );
      expect(server.problems).toEqual([]);
      expect(run.code, `${run.stderr.slice(-3_000)}\n${run.stdout.slice(-3_000)}`).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      const task = report.tasks[0]!;
      expect(task.status).toBe('completed');
      const byProvider = task.attempts.map((a) => `${a.attempt}:${a.provider}:${a.outcome}`);
      expect(byProvider).toEqual(['1:limited:rate_limited', '1:agent:validation_failed', '1:agent:ok', '2:agent:ok']);
      const [, first, helper, second] = task.attempts;
      // Measured by Baton in the workspace, not taken from the agent's word.
      expect(first).toMatchObject({ files_created: ['greet.js'], files_updated: [] });
      expect(helper).toMatchObject({ files_created: [], files_updated: [] });
      expect(second).toMatchObject({ files_created: ['test/greet.test.js'], files_updated: ['greet.js'] });
      // Each injected block reached the model verbatim.
      expect(first!.injected_context).toMatch(/^--- PROVIDER SWITCH CONTEXT ---\nPrevious provider \(limited\) failed: rate_limited\n/);
      expect(helper!.injected_context).toMatch(/^--- HELPER AGENT CONTEXT ---\n/);
      expect(second!.injected_context).toMatch(/^--- RETRY CONTEXT ---\n[^]*check failed: test -f test\/greet.test.js/);
      for (const attempt of [first!, helper!, second!]) expect(reachedModel(server, attempt.injected_context.trim())).toBe(true);
      // The test ran through the CLI's own shell tool, and passed.
      const shell = ['Bash', 'run_shell_command', 'exec_command', 'shell_command', 'shell', 'bash'];
      const testRun = server.turns.flatMap((t) => t.toolResults).find((r) => shell.includes(r.name) && r.text.includes('greets by name'));
      expect(testRun?.text).toMatch(/# pass 1\b/);
      expect(testRun?.isError).toBe(false);
      // The model each dispatch recorded is the one the CLI asked the server for.
      const asked = new Set(server.turns.map((t) => t.model));
      const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: repo });
      try {
        const dispatches = (await ledger.listDispatches({ taskId: 'greet', limit: 50 })).items.filter(
          (d: Dispatch) => d.provider === 'agent',
        );
        for (const d of dispatches) expect(asked).toContain(d.model);
        console.log(
          `[seams-real-clis] ${name}: ${describeOverhead(await ledger.listDispatches({ taskId: 'greet', limit: 50 }).then((p) => p.items))}`,
        );
      } finally {
        await ledger.close();
      }
    } finally {
      await server.close();
    }
  });
});

/**
 * Baton's own share of each attempt's provider chain: from its first try's start to its last try's
 * end, less the time the agent processes ran (the rest is measurement, classification, the ledger,
 * the pre-context blocks).
 */
function describeOverhead(dispatches: readonly Dispatch[]): string {
  const attempts = new Map<number, Dispatch[]>();
  for (const d of dispatches) if (d.mode !== 'helper') attempts.set(d.attempt, [...(attempts.get(d.attempt) ?? []), d]);
  return [...attempts]
    .sort(([a], [b]) => a - b)
    .map(([n, tries]) => {
      const start = Math.min(...tries.map((d) => d.startedAt ?? 0));
      const end = Math.max(...tries.map((d) => d.finishedAt ?? 0));
      const agents = tries.reduce((sum, d) => sum + (d.durationMs ?? 0), 0);
      return `attempt ${n}: Baton ${Math.round(end - start - agents)} ms of ${Math.round(end - start)} ms`;
    })
    .join(', ');
}
