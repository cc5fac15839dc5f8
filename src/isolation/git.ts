import { spawn } from 'node:child_process';
import { BatonError } from '../errors/index.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Baton's own commits, merges and fetches (hundreds in a run) leave git's automatic maintenance
 * off: each would start `git maintenance run --auto`, and a `gc --auto` that repacks mid-run costs
 * seconds on a large repository (seen: 2.7 s on 50,000 loose objects). The user's next own commit
 * runs it as usual.
 */
const GIT_OPTIONS = ['-c', 'core.quotepath=off', '-c', 'maintenance.auto=false', '-c', 'gc.auto=0', '--no-pager'];

/** Runs git in `cwd` without throwing; `env` adds to the process environment (commit identity). */
export function git(args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_OPTIONS, ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 8000) stderr += c.toString('utf8');
    });
    child.on('error', (error) => reject(new BatonError('INTERNAL', `git could not start: ${error.message}`, { cause: error })));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Runs git and returns stdout trimmed; throws INTERNAL naming the command and git's message. */
export async function gitOk(args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Promise<string> {
  const result = await git(args, cwd, env);
  if (result.code !== 0) {
    throw new BatonError('INTERNAL', `git ${args.join(' ')} failed in ${cwd}: ${result.stderr.trim() || `exit ${result.code}`}`, {
      details: { args: [...args], cwd, exitCode: result.code },
    });
  }
  return result.stdout.trim();
}

/** A commit identity for Baton's own commits when the repository has none configured. */
export async function commitIdentity(cwd: string): Promise<Record<string, string>> {
  const email = await git(['config', 'user.email'], cwd);
  if (email.code === 0 && email.stdout.trim()) return {};
  return {
    GIT_AUTHOR_NAME: 'Baton',
    GIT_AUTHOR_EMAIL: 'baton@localhost',
    GIT_COMMITTER_NAME: 'Baton',
    GIT_COMMITTER_EMAIL: 'baton@localhost',
  };
}
