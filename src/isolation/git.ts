import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { runCommand } from '../spawner/index.js';

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

/** @default 64 MiB: git output Baton reads here is short; this only bounds a runaway command. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Git work off a task's path runs at this niceness: with --concurrency, setting up worktrees,
 * measuring and committing beside the one integration at a time; on a worker, making a released
 * worktree ready and offering a commit. A worker's own measuring and committing is on its task's
 * path (the turn is only the push), and runs at normal priority: measured on 2 cores with 4
 * workers, overhead p50 95 ms against 109 ms niced (10 interleaved runs each).
 */
export const SIDE_WORK_NICENESS = 10;

/**
 * Runs git in `cwd` without throwing; `env` adds to the process environment (commit identity),
 * `niceness` lowers its CPU priority.
 */
export async function git(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
  niceness = 0,
): Promise<GitResult> {
  const result = await runGit(args, cwd, { env, niceness });
  return { code: result.code, stdout: result.stdout.toString('utf8'), stderr: result.stderr };
}

/** Runs git with `input` on its stdin and returns its stdout as bytes (a pack, say), without throwing. */
export function gitBytes(
  args: readonly string[],
  cwd: string,
  input?: Uint8Array,
): Promise<Omit<GitResult, 'stdout'> & { stdout: Buffer }> {
  return runGit(args, cwd, input ? { input } : {});
}

async function runGit(
  args: readonly string[],
  cwd: string,
  options: { env?: Readonly<Record<string, string>>; niceness?: number; input?: Uint8Array },
): Promise<Omit<GitResult, 'stdout'> & { stdout: Buffer }> {
  try {
    const result = await runCommand({
      file: 'git',
      args: [...GIT_OPTIONS, ...args],
      cwd,
      env: { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
      maxBytes: MAX_OUTPUT_BYTES,
      maxStderr: 8000,
      ...(options.niceness ? { niceness: options.niceness } : {}),
      ...(options.input ? { input: options.input } : {}),
    });
    return { code: result.code ?? 1, stdout: result.stdout, stderr: result.stderr };
  } catch (error) {
    throw new BatonError('INTERNAL', `git could not start: ${(error as Error).message}`, { cause: error });
  }
}

/** Runs git and returns stdout trimmed; throws INTERNAL naming the command and git's message. */
export async function gitOk(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
  niceness = 0,
): Promise<string> {
  const result = await git(args, cwd, env, niceness);
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

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The commit a branch or tracking ref points at. Refs git has just written (by a fetch, commit,
 * merge or push) are loose files under the common git folder: reading one spares a git run on a
 * task's path. A packed or otherwise stored ref is asked of git.
 */
export async function readRef(commonDir: string, ref: string, cwd: string): Promise<string> {
  const loose = await readFile(path.join(commonDir, ref), 'utf8').catch(() => '');
  const sha = loose.trim();
  if (OBJECT_ID.test(sha)) return sha;
  return gitOk(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd);
}

/**
 * The commit checked out in a work tree: read from its HEAD file when that holds a commit (a
 * detached task worktree, just written by git), else asked of git.
 */
export async function readHead(dir: string): Promise<string> {
  const gitDir = await worktreeGitDir(dir).catch(() => undefined);
  const head = gitDir ? (await readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => '')).trim() : '';
  if (OBJECT_ID.test(head)) return head;
  return gitOk(['rev-parse', '--verify', 'HEAD^{commit}'], dir);
}

/** The git folder of a work tree (`.git` itself, or the one a linked worktree's `.git` file names). */
export async function worktreeGitDir(dir: string): Promise<string> {
  const link = await readFile(path.join(dir, '.git'), 'utf8').catch(() => undefined);
  const named = link === undefined ? undefined : /^gitdir: (.+)$/m.exec(link)?.[1]?.trim();
  if (named) return path.resolve(dir, named);
  return path.resolve(dir, await gitOk(['rev-parse', '--git-dir'], dir));
}
