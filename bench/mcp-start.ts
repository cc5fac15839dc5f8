/**
 * `npm run bench -- mcp-start [--runs N] [--bin PATH]`: how long a client waits for Baton through
 * each start-up form docs/mcp.md names (issue 30: Codex CLI sends its first model turn when its
 * MCP servers are not ready yet, unless a server is `required`). In a project that installed Baton
 * as a dev dependency (node_modules/agent-baton linked to this checkout, node_modules/.bin/baton to
 * its bin, as `npm install --save-dev` lays them out) with a small git repository and ledger, each
 * round spawns, in turn:
 * - `npx agent-baton mcp --workspace .` (the form of the docs' Claude Code, Gemini CLI and Copilot CLI configs);
 * - `node_modules/.bin/baton mcp --workspace .` (the project's own bin, by path);
 * - `baton mcp --workspace .` found on PATH (a global install: npm's bin folder links to bin/baton.js);
 * - `node -e 0`, for scale;
 * and measures, through the MCP SDK client over stdio, spawn to `initialize` answered and to
 * `tools/list` answered (what a client needs before it can offer Baton's tools). Medians and
 * ranges of `--runs` (default 9). Needs a build (`npm run build`). Writes bench/results/mcp-start.json.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openLedger } from '../src/ledger/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

interface Form {
  /** As a user writes it in a client's config. */
  command: string;
  spawn: (project: string, env: NodeJS.ProcessEnv) => { command: string; args: string[] };
}

const FORMS: Record<string, Form> = {
  npx: {
    command: 'npx agent-baton mcp --workspace .',
    spawn: () => ({ command: 'npx', args: ['agent-baton', 'mcp', '--workspace', '.'] }),
  },
  project_bin: {
    command: 'node_modules/.bin/baton mcp --workspace .',
    spawn: (project) => ({ command: path.join(project, 'node_modules/.bin/baton'), args: ['mcp', '--workspace', '.'] }),
  },
  global: { command: 'baton mcp --workspace .', spawn: () => ({ command: 'baton', args: ['mcp', '--workspace', '.'] }) },
};

export default async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 9);
  const bin = path.resolve(flag(args, '--bin') ?? path.join(ROOT, 'bin', 'baton.js'));
  const { project, globalBin, cleanup } = await makeProject(bin);
  const env = { ...process.env, PATH: `${globalBin}${path.delimiter}${process.env.PATH ?? ''}`, BATON_LOG_LEVEL: 'warn' };
  const load = [loadavg()[0] ?? 0];
  const times: Record<string, { initialize: number[]; tools: number[] }> = {};
  const nodeE0: number[] = [];
  try {
    for (let round = 0; round < runs; round += 1) {
      for (const [name, form] of Object.entries(FORMS)) {
        const measured = await measure(form.spawn(project, env), project, env);
        times[name] ??= { initialize: [], tools: [] };
        times[name].initialize.push(measured.initialize);
        times[name].tools.push(measured.tools);
      }
      const started = performance.now();
      spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      nodeE0.push(performance.now() - started);
      process.stderr.write(`round ${round + 1}/${runs}\n`);
    }
  } finally {
    cleanup();
  }
  load.push(loadavg()[0] ?? 0);
  const results = {
    bench: 'mcp-start',
    node: process.version,
    cpus: cpus().length,
    load_avg_1m: load.map((l) => Number(l.toFixed(2))),
    runs,
    node_e0_ms: summary(nodeE0),
    forms: Object.fromEntries(
      Object.entries(FORMS).map(([name, form]) => [
        name,
        { command: form.command, initialize_ms: summary(times[name]?.initialize ?? []), tools_list_ms: summary(times[name]?.tools ?? []) },
      ]),
    ),
  };
  await mkdir(path.join(HERE, 'results'), { recursive: true });
  await writeFile(path.join(HERE, 'results', 'mcp-start.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

/** Spawn to `initialize` answered, and to `tools/list` answered, through the SDK client. */
async function measure(spawn: { command: string; args: string[] }, cwd: string, env: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({ ...spawn, cwd, env: env as Record<string, string>, stderr: 'ignore' });
  const client = new Client({ name: 'bench-mcp-start', version: '1.0.0' });
  const started = performance.now();
  await client.connect(transport);
  const initialize = performance.now() - started;
  const { tools } = await client.listTools();
  const listed = performance.now() - started;
  await client.close();
  if (tools.length !== 7) throw new Error(`${spawn.command}: expected 7 tools, got ${tools.length}`);
  return { initialize, tools: listed };
}

/**
 * A user's project: a git repository with a ledger, Baton installed as a dev dependency (linked
 * as `npm install --save-dev /path/to/clone` lays it out), and a folder standing in for npm's
 * global bin, whose `baton` links to bin/baton.js as `npm install --global` makes it.
 */
async function makeProject(bin: string): Promise<{ project: string; globalBin: string; cleanup: () => void }> {
  const base = mkdtempSync(path.join(tmpdir(), 'baton-mcp-start-'));
  const project = path.join(base, 'project');
  const packageRoot = path.resolve(path.dirname(bin), '..');
  mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(path.join(project, 'src'));
  writeFileSync(path.join(project, 'src', 'app.ts'), 'export const app = 1;\n');
  writeFileSync(path.join(project, '.gitignore'), 'node_modules/\n.baton/\n');
  writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'demo', private: true, devDependencies: { 'agent-baton': `file:${packageRoot}` } }, null, 2)}\n`,
  );
  symlinkSync(packageRoot, path.join(project, 'node_modules', 'agent-baton'), 'dir');
  symlinkSync('../agent-baton/bin/baton.js', path.join(project, 'node_modules', '.bin', 'baton'));
  const globalBin = path.join(base, 'global-bin');
  mkdirSync(globalBin);
  symlinkSync(bin, path.join(globalBin, 'baton'));
  const git = (...a: string[]) => execFileSync('git', a, { cwd: project, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'add', '-A');
  git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'commit', '-qm', 'demo');
  const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: project });
  await ledger.createTask({ id: 'api', title: 'Fix the API', status: 'in_progress' });
  await ledger.close();
  return { project, globalBin, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

function summary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  return { median: at(0.5), min: at(0), max: at(1) };
}

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
