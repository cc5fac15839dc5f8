import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Ledger, openLedger } from '../../../src/ledger/index.js';
import { seedBusyWorkspace } from '../../refresh/busy-ledger.js';
import { ROOT } from '../helpers/launch.js';

/** Tasks t1..t9 next to the busy one, for a ten-task refresh. */
export const EXTRA_TASKS = 9;

/** The client versions the suite pins (issue 11). */
export const CLIENTS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  inspector: { pkg: '@modelcontextprotocol/inspector', version: '2.12.0', bin: 'inspector' },
} as const;
export type ClientName = keyof typeof CLIENTS;

/** @default $HOME/.cache/baton-clients (BATON_CLIENTS_CACHE overrides): outside the package's dependencies. */
export const CLIENT_CACHE = process.env.BATON_CLIENTS_CACHE ?? path.join(os.homedir(), '.cache', 'baton-clients');

/** Where a pinned client lives in the cache, e.g. ~/.cache/baton-clients/@google+gemini-cli@0.61.0. */
export function clientDir(name: ClientName): string {
  const { pkg, version } = CLIENTS[name];
  return path.join(CLIENT_CACHE, `${pkg.replace('/', '+')}@${version}`);
}

export function clientBin(name: ClientName): string {
  return path.join(clientDir(name), 'node_modules', '.bin', CLIENTS[name].bin);
}

/**
 * Installs a pinned client into the cache once (npm, its own folder, never this package's
 * node_modules) and returns its bin, or the reason it could not be installed.
 */
export async function ensureClient(name: ClientName): Promise<{ bin?: string; reason?: string }> {
  const bin = clientBin(name);
  if (existsSync(bin)) return { bin };
  const dir = clientDir(name);
  try {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  } catch (error) {
    return { reason: `cannot create ${dir}: ${(error as Error).message}` };
  }
  const { pkg, version } = CLIENTS[name];
  const run = await runProcess('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${version}`], {
    cwd: dir,
    timeoutMs: 300_000,
  });
  if (run.code !== 0 || !existsSync(bin))
    return { reason: `npm install ${pkg}@${version} failed (exit ${run.code}): ${run.stderr.slice(-400)}` };
  return { bin };
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a process to the end (its own process group, killed whole on timeout). */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number; input?: string },
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${error.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * A project as a user has it after following the README: a git repository with Baton's ledger
 * (the busy one of issue 11, in `.baton/agent.db`) and Baton installed as a dev dependency from a
 * clone: `node_modules/agent-baton` links to this repository and `node_modules/.bin/baton` to its
 * bin, the layout `npm install --save-dev /path/to/clone` makes (made directly here to keep the
 * suite offline and fast). Needs `npm run build` (dist/).
 */
export async function makeProject(): Promise<{ dir: string; cleanup: () => void }> {
  let ledger: Ledger | undefined;
  const repo = await seedBusyWorkspace(async (dir) => {
    ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: dir });
    return ledger;
  }, EXTRA_TASKS);
  await ledger?.close();
  const modules = path.join(repo.dir, 'node_modules');
  mkdirSync(path.join(modules, '.bin'), { recursive: true });
  symlinkSync(ROOT, path.join(modules, 'agent-baton'), 'dir');
  symlinkSync('../agent-baton/bin/baton.js', path.join(modules, '.bin', 'baton'));
  writeFileSync(
    path.join(repo.dir, 'package.json'),
    JSON.stringify({ name: 'demo-project', private: true, devDependencies: { 'agent-baton': `file:${ROOT}` } }, null, 2),
  );
  writeFileSync(path.join(repo.dir, '.gitignore'), 'node_modules/\n.baton/\n');
  return repo;
}
