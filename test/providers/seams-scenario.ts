/**
 * Issue 26's plan through `baton run` (the built CLI, a child process) with one real agent CLI at
 * its pinned version behind the scripted model server, which acts only on the prompt text it gets:
 *
 * 1. `limited` (a command provider) prints `429 Too Many Requests` and exits 1: rate_limited.
 * 2. The real CLI gets the PROVIDER SWITCH block; the model writes greet.js with the CLI's own
 *    file tool. Validation fails: `test -f test/greet.test.js`, and the criterion without a check
 *    goes to the helper (the same CLI), whose HELPER AGENT CONTEXT the model answers with a check.
 * 3. Attempt 2 carries the RETRY block naming the failures; the model fixes greet.js, writes the
 *    test and runs it through the CLI's shell tool. Validation passes.
 *
 * Shared by test/providers/seams-real-clis.test.ts (what must hold) and bench/agent-clis.ts (how
 * long Baton's own part of each attempt takes).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Dispatch, openLedger } from '../../src/ledger/index.js';
import { type AgentCliName, cleanEnvironment, type ProcessResult, prepareAgentCli, runProcess } from '../helpers/agent-clis/index.js';
import { clientTools, type ModelRequestView, type ModelServer, say, startModelServer } from '../helpers/model-server/index.js';

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
export const PLAN = `tasks:
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
export function script(cwd: string) {
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

export interface Report {
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

/** A git repository with the plan, for one CLI's run. */
function makeRepo(name: AgentCliName): string {
  const repo = mkdtempSync(path.join(tmpdir(), `baton-seams-${name}-`));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, '.gitignore'), 'state.db*\nplan.yaml\nbaton.config.json\n');
  writeFileSync(path.join(repo, 'plan.yaml'), PLAN);
  mkdirSync(path.join(repo, 'test'));
  git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'initial');
  return repo;
}

/** baton.config.json: `limited` first, then the real CLI with only the environment its set-up adds. */
function writeConfig(repo: string, name: AgentCliName, bin: string, cliEnv: Record<string, string>): void {
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
}

export interface SeamsRun {
  /** `baton run … --json` as a process. */
  run: ProcessResult;
  /** The model server, closed: its requests and turns as logged. */
  server: ModelServer;
  repo: string;
  /** The task's dispatches as the ledger holds them, newest first. */
  dispatches: Dispatch[];
  /** Folders to remove when done (the repository, the CLI's HOME). */
  made: string[];
}

/** Runs the scenario once with one CLI (its bin from ensureClients). */
export async function runSeamsScenario(name: AgentCliName, bin: string): Promise<SeamsRun> {
  const repo = makeRepo(name);
  const made = [repo];
  const server = await startModelServer({ respond: script(repo) });
  try {
    const cli = await prepareAgentCli(name, { serverUrl: server.url, cwd: repo });
    made.push(cli.home);
    // Only what the CLI needs beyond a user's shell: its HOME and its model endpoint settings.
    writeConfig(repo, name, bin, cli.ownEnv);
    const run = await runProcess(
      process.execPath,
      [BATON, 'run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db', '--json'],
      {
        cwd: repo,
        env: { ...cleanEnvironment(), BATON_LOG_LEVEL: 'warn' },
        timeoutMs: 840_000,
      },
    );
    const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: repo });
    try {
      const dispatches = (await ledger.listDispatches({ taskId: 'greet', limit: 50 })).items;
      return { run, server, repo, dispatches, made };
    } finally {
      await ledger.close();
    }
  } finally {
    await server.close();
  }
}

export interface AttemptShare {
  attempt: number;
  /** From the attempt's first try's start to its last try's end. */
  wallMs: number;
  /** wallMs less the time the agent processes ran: measurement, classification, the ledger, the blocks. */
  batonMs: number;
}

/**
 * Baton's own share of each attempt's provider chain (helper runs left out): from its first try's
 * start to its last try's end, less the time the agent processes ran.
 */
export function batonShare(dispatches: readonly Dispatch[]): AttemptShare[] {
  const attempts = new Map<number, Dispatch[]>();
  for (const d of dispatches) if (d.mode !== 'helper') attempts.set(d.attempt, [...(attempts.get(d.attempt) ?? []), d]);
  return [...attempts]
    .sort(([a], [b]) => a - b)
    .map(([attempt, tries]) => {
      const start = Math.min(...tries.map((d) => d.startedAt ?? 0));
      const end = Math.max(...tries.map((d) => d.finishedAt ?? 0));
      const agents = tries.reduce((sum, d) => sum + (d.durationMs ?? 0), 0);
      return { attempt, wallMs: end - start, batonMs: end - start - agents };
    });
}
