/**
 * Every command of `baton`, from the outside: a consumer project installed from `npm pack` runs
 * each command and subcommand listed by `baton --help` (and each command's `--help`) as a child
 * process with the test runner's real process.env plus planted secrets. A command added later
 * joins by being listed in `--help`; one missing from MINIMAL fails with its name.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerProject, REPO_ROOT } from '../helpers/consumer-project.js';
import { startFakeLlm, type FakeLlm } from '../panel/fake-llm-server.js';
import { writePanel } from '../panel/panel-fixture.js';
import { type ChildRun, commandsOf, runChild, workspace } from './cli-matrix-runner.js';

/** A key-shaped value the redactor knows, and one only its name marks as a secret. */
const PLANTED = {
  OPENAI_API_KEY: `sk-proj-${randomBytes(36).toString('base64url').slice(0, 48)}`,
  AWS_SECRET_ACCESS_KEY: randomBytes(30).toString('base64url').slice(0, 40),
};
const ENV: NodeJS.ProcessEnv = { ...process.env, ...PLANTED };
/** A config file that is not JSON and holds a secret: the error must name the file, not quote it. */
const BAD_CONFIG = `{\n  "ledger": "memory",\n  OPENAI_API_KEY=${PLANTED.OPENAI_API_KEY}\n}\n`;

interface Minimal {
  /** Arguments after the command's own words; `{PANEL}` is a working panel file. */
  args: string[];
  /** The exit code its docs give for this invocation. */
  exit: number;
  files?: Record<string, string>;
  stdin?: string;
  /** A server: the ready line (text, then under --json). */
  ready?: RegExp;
  /** Run `baton init` in the workspace first. */
  init?: boolean;
  /** Why --json prints nothing to parse, when it does not. */
  noJson?: string;
  /** Why bad input does not exit 2. */
  neverFails?: string;
}

const PLAN = JSON.stringify({
  tasks: [{ id: 'docs', instructions: 'Write done.txt', acceptance_criteria: [{ description: 'done', check: 'test -f done.txt' }] }],
});
const RUN_CONFIG = JSON.stringify({
  providers: { writer: { type: 'command', command: [process.execPath, '-e', "require('fs').writeFileSync('done.txt','x')"] } },
  priority: ['writer'],
});
const TRAJECTORY = path.join(REPO_ROOT, 'test', 'fixtures', 'loop', 'swe-agent-new.traj');

/** One minimal real invocation per command, keyed by its words. */
const MINIMAL: Record<string, Minimal> = {
  demo: { args: [], exit: 0 },
  run: { args: ['plan.json', '--config', 'baton.config.json'], exit: 0, files: { 'plan.json': PLAN, 'baton.config.json': RUN_CONFIG } },
  init: { args: [], exit: 0 },
  status: { args: [], exit: 0 },
  'task add': { args: ['t1', '--title', 'First'], exit: 0 },
  'task list': { args: [], exit: 0 },
  'task show': { args: ['ghost'], exit: 2 },
  'debt add': { args: ['Flaky test'], exit: 0 },
  'debt list': { args: [], exit: 0 },
  refresh: { args: [], exit: 0 },
  mcp: {
    args: ['--http', '--port', '0'],
    exit: 0,
    ready: /listening on http/,
    noJson: 'an MCP server: stdout is the protocol channel, the ready line goes to stderr',
  },
  panel: { args: ['--config', '{PANEL}', 'How do I volley?'], exit: 0 },
  serve: { args: ['--config', '{PANEL}', '--port', '0'], exit: 0, ready: /listening on http|"url"[\s\S]*\}/ },
  // Exit 1, DEPENDENCY_MISSING naming the packages: its snippets need optional peers this project lacks.
  'bench context': { args: ['--traj', TRAJECTORY, '--budget', '4096', '--latency-runs', '1'], exit: 1 },
  export: { args: ['--out', 'ledger.jsonl'], exit: 0 },
  import: { args: ['empty.jsonl'], exit: 0, files: { 'empty.jsonl': '' } },
  ui: { args: ['--port', '0'], exit: 0, ready: /baton ui: http|"url"/, init: true },
  worker: { args: [], exit: 2 },
  'hooks install': { args: ['--client', 'claude', '--dry-run'], exit: 0 },
  'hooks uninstall': { args: ['--client', 'claude', '--dry-run'], exit: 0 },
  'hooks status': { args: [], exit: 0 },
  'sessions list': { args: [], exit: 0 },
  'sessions import': { args: [], exit: 0 },
  'sessions show': { args: ['ghost'], exit: 2 },
  // A fresh workspace has no agent session to hand off: exit 2, naming `baton sessions`.
  handoff: { args: [], exit: 2 },
  hook: {
    args: ['session-start', '--client', 'claude'],
    exit: 0,
    stdin: '{}',
    neverFails: 'an agent CLI runs it at every tool call: it exits 0 whatever its input (docs/hooks.md)',
  },
};

interface Command {
  words: string[];
  help: ChildRun;
  json: boolean;
  config: boolean;
}

let bin: string;
let llm: FakeLlm;
let panelFile: string;
const commands: Command[] = [];
const runs = new Map<string, { text: ChildRun; json?: ChildRun; badConfig?: ChildRun; badFlag?: ChildRun }>();
const all: ChildRun[] = [];

async function baton(
  args: string[],
  options: { files?: Record<string, string>; stdin?: string; ready?: RegExp; init?: boolean } = {},
): Promise<ChildRun> {
  const cwd = workspace({ ...options.files, 'bad.json': BAD_CONFIG });
  if (options.init) all.push(await runChild(bin, { args: ['init'], cwd, env: ENV }));
  const ready = options.ready;
  const spec = {
    args: args.map((arg) => (arg === '{PANEL}' ? panelFile : arg)),
    cwd,
    env: ENV,
    stdin: options.stdin,
    ready: ready && ((stdout: string, stderr: string) => ready.test(stdout + stderr)),
  };
  return runChild(bin, spec).then((run) => {
    all.push(run);
    return run;
  });
}

/** Every command and subcommand, from `baton --help` down. */
async function discover(words: string[] = []): Promise<void> {
  const help = await baton([...words, '--help']);
  const subcommands = commandsOf(help.stdout);
  if (words.length > 0 && subcommands.length === 0) {
    commands.push({ words, help, json: help.stdout.includes('--json'), config: help.stdout.includes('--config <file>') });
  }
  await Promise.all(subcommands.map((name) => discover([...words, name])));
  if (words.length > 0 && subcommands.length > 0) commands.push({ words, help, json: false, config: false });
}

async function exercise(command: Command): Promise<void> {
  const minimal = MINIMAL[command.words.join(' ')];
  if (!minimal || command.help.stdout.includes('\nCommands:')) return;
  const options = { files: minimal.files, stdin: minimal.stdin, ready: minimal.ready, init: minimal.init };
  const [text, json, badConfig, badFlag] = await Promise.all([
    baton([...command.words, ...minimal.args], options),
    command.json && !minimal.noJson ? baton([...command.words, ...minimal.args, '--json'], options) : undefined,
    command.config && !minimal.neverFails ? baton([...command.words, ...minimal.args, '--config', 'bad.json'], options) : undefined,
    minimal.neverFails ? undefined : baton([...command.words, ...minimal.args, '--no-such-flag'], options),
  ]);
  runs.set(command.words.join(' '), { text, json, badConfig, badFlag });
}

const leaves = () => commands.filter((c) => !c.help.stdout.includes('\nCommands:'));
const show = (run: ChildRun) =>
  `exit ${run.code}${run.hung ? ' (hung)' : ''}\n--- stdout\n${run.stdout.slice(0, 1500)}\n--- stderr\n${run.stderr.slice(0, 1500)}`;

beforeAll(async () => {
  const project = await consumerProject();
  bin = path.join(project.dir, 'node_modules', 'agent-baton', 'bin', 'baton.js');
  llm = await startFakeLlm(() => ({ text: 'Bend your knees.' }));
  panelFile = await writePanel(llm.baseURL, { agents: ['technique'] });
  await discover();
  await Promise.all(commands.map(exercise));
}, 1_800_000);

afterAll(async () => {
  await llm?.close();
});

describe('every baton command from a packed install, with the real environment', () => {
  it('finds the commands in --help, and has a minimal invocation for each', () => {
    const names = leaves().map((c) => c.words.join(' '));
    expect(names).toEqual(expect.arrayContaining(['run', 'panel', 'serve', 'refresh', 'task add', 'hooks status', 'mcp', 'ui']));
    const missing = names.filter((name) => !(name in MINIMAL));
    expect(missing, `add a minimal invocation to MINIMAL in test/cli/cli-matrix.test.ts for: ${missing.join(', ')}`).toEqual([]);
  });

  it('--help exits 0 for every command and subcommand', () => {
    const failed = commands.filter((c) => c.help.code !== 0 || !c.help.stdout.startsWith('Usage: baton'));
    expect(failed.map((c) => `${c.words.join(' ')}: ${show(c.help)}`)).toEqual([]);
  });

  it('a minimal real invocation exits with its documented code, printing text unless --json', () => {
    const failed: string[] = [];
    for (const [name, { text }] of runs) {
      const minimal = MINIMAL[name];
      if (text.code !== minimal?.exit) failed.push(`${name}: expected exit ${minimal?.exit}, ${show(text)}`);
      const command = commands.find((c) => c.words.join(' ') === name);
      if (command?.json && isJson(text.stdout)) failed.push(`${name}: printed JSON without --json`);
    }
    expect(failed).toEqual([]);
  });

  it('--json output parses', () => {
    const failed = [...runs].filter(([, r]) => r.json && !startsWithJson(r.json.stdout)).map(([name, r]) => `${name}: ${show(r.json!)}`);
    expect(runs.size).toBeGreaterThan(15);
    expect(failed).toEqual([]);
  });

  it('a bad config file exits 2 and names the file, without quoting it', () => {
    const failed = [...runs]
      .filter(([, r]) => r.badConfig && (r.badConfig.code !== 2 || !`${r.badConfig.stdout}${r.badConfig.stderr}`.includes('bad.json')))
      .map(([name, r]) => `${name}: ${show(r.badConfig!)}`);
    expect(failed).toEqual([]);
  });

  it('a bad flag exits 2 and names the flag', () => {
    const failed = [...runs]
      .filter(([, r]) => r.badFlag && (r.badFlag.code !== 2 || !r.badFlag.stderr.includes("unknown option '--no-such-flag'")))
      .map(([name, r]) => `${name}: ${show(r.badFlag!)}`);
    expect(failed).toEqual([]);
  });

  it('no output of any run holds a planted secret', () => {
    expect(all.length).toBeGreaterThan(60);
    const leaked = all.filter((run) => Object.values(PLANTED).some((secret) => run.stdout.includes(secret) || run.stderr.includes(secret)));
    expect(leaked.map((run) => `baton ${run.args.join(' ')}`)).toEqual([]);
  });
});

function isJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The whole output is JSON, or (a server's) its first line or first pretty-printed object. */
function startsWithJson(text: string): boolean {
  const end = text.indexOf('\n}\n');
  return isJson(text) || isJson(text.split('\n')[0] ?? '') || (end >= 0 && isJson(text.slice(0, end + 2)));
}
