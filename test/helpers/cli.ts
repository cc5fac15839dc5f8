import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/index.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json<T = unknown>(): T;
}

/**
 * Runs the CLI in-process against a working directory, capturing its output. Its environment is
 * the test runner's real process.env (what a user's shell hands `baton`), unless `env` is given.
 */
export async function runBaton(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['node', 'baton', ...args], {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    cwd: options.cwd,
    env: options.env ?? process.env,
    isTTY: false,
  });
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** A fresh temporary folder, removed by the returned cleanup. */
export async function tempDir(prefix = 'baton-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
