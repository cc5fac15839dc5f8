import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeProjectSlug, geminiProjectNames } from '../../src/sessions/index.js';

export const FIXTURES = '/work/shared/fixtures/agent-sessions';
export const BIN = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));

export const CLAUDE_FIXTURE = `${FIXTURES}/claude-code/bradymholt__dotfiles__42d26d1b-3995-4735-bd1f-db7687b0bb86.jsonl`;
export const CODEX_FIXTURE = `${FIXTURES}/codex/blubber__dotfiles__rollout-2026-02-10T04-57-33-019c45b2-846a-7fa1-9ed7-42354e9982fd.jsonl`;
export const GEMINI_FIXTURE = `${FIXTURES}/gemini-cli/fabien-lessirard__dotfiles__session-2026-02-27T01-50-4e7b4ba4.json`;
export const COPILOT_FIXTURE = `${FIXTURES}/copilot-cli/XEFF09__dotfiles__3cc3555e-5462-44f9-95de-c67b1cb220b9.events.jsonl`;

/** The env a user's process would have with the four client stores under `home` (real process.env plus those). */
export function storeEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
    CODEX_HOME: path.join(home, 'codex'),
    GEMINI_CLI_HOME: path.join(home, 'gemini-home'),
    COPILOT_HOME: path.join(home, 'copilot'),
    BATON_LEDGER: `sqlite:${path.join(home, 'ledger.db')}`,
  };
}

/** Rewrites a JSONL file's first line's cwd (Codex session_meta, Copilot session.start). */
async function withCwd(fixture: string, cwd: string): Promise<string> {
  const [first, ...rest] = (await readFile(fixture, 'utf8')).split('\n');
  const head = JSON.parse(first as string) as { payload?: { cwd?: string }; data?: { context?: { cwd?: string } } };
  if (head.payload) head.payload.cwd = cwd;
  if (head.data) head.data.context = { cwd };
  return [JSON.stringify(head), ...rest].join('\n');
}

/** Lays out one real session of each client in its store, as if run in `workspace`; a Codex one of another folder too. */
export async function layOutStores(home: string, workspace: string): Promise<Record<string, string>> {
  const env = storeEnv(home);
  const claude = path.join(
    env.CLAUDE_CONFIG_DIR as string,
    'projects',
    claudeProjectSlug(workspace),
    '42d26d1b-3995-4735-bd1f-db7687b0bb86.jsonl',
  );
  const codexDir = path.join(env.CODEX_HOME as string, 'sessions', '2026', '02', '10');
  const codex = path.join(codexDir, 'rollout-2026-02-10T04-57-33-019c45b2-846a-7fa1-9ed7-42354e9982fd.jsonl');
  const foreign = path.join(codexDir, 'rollout-2026-02-10T05-00-00-aaaaaaaa-0000-0000-0000-000000000000.jsonl');
  const gemini = path.join(
    env.GEMINI_CLI_HOME as string,
    '.gemini',
    'tmp',
    geminiProjectNames(workspace)[0] as string,
    'chats',
    'session-x.json',
  );
  const copilot = path.join(env.COPILOT_HOME as string, 'session-state', '3cc3555e-5462-44f9-95de-c67b1cb220b9', 'events.jsonl');
  for (const file of [claude, codex, gemini, copilot]) await mkdir(path.dirname(file), { recursive: true });
  await writeFile(claude, await readFile(CLAUDE_FIXTURE));
  await writeFile(codex, await withCwd(CODEX_FIXTURE, path.join(workspace, 'sub')));
  await writeFile(foreign, await withCwd(CODEX_FIXTURE, '/somewhere/else'));
  await writeFile(gemini, await readFile(GEMINI_FIXTURE));
  await writeFile(copilot, await withCwd(COPILOT_FIXTURE, workspace));
  return { claude, codex, foreign, gemini, copilot };
}

export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `baton` bin (dist/: build first) in `cwd` with `env`. */
export function runBin(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<BinRun> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
