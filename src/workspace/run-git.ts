import { existsSync, statSync } from 'node:fs';
import { BatonError } from '../errors/index.js';
import { CommandStartError, runCommand } from '../spawner/index.js';

/** @default 8 MiB: output past this is cut (and flagged), so a huge diff cannot exhaust memory. */
export const DEFAULT_GIT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Before every command. Paths unquoted, no pager; and Baton's own commits, merges and fetches
 * (hundreds in a run) leave git's automatic maintenance off: a `gc --auto` that repacks mid-run
 * costs seconds on a large repository (seen: 2.7 s on 50,000 loose objects). The user's next own
 * commit runs it as usual.
 */
const GIT_OPTIONS = ['-c', 'core.quotepath=off', '-c', 'maintenance.auto=false', '-c', 'gc.auto=0', '--no-pager'];

/**
 * No prompts (a fetch that needs a password fails instead of waiting), English messages (Baton
 * reads some of them), and no optional locks: a read never takes index.lock while an agent may
 * be running git itself in the same folder.
 */
const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };

export interface GitOptions {
  /** Added to the environment (a commit identity, say). @default {} */
  env?: Readonly<Record<string, string>>;
  /** stdout past this is cut and `truncated` set. @default DEFAULT_GIT_MAX_BYTES */
  maxBytes?: number;
  /** Lowers the command's CPU priority (0-19). @default 0 */
  niceness?: number;
  /** The command is stopped when it runs longer (network commands). @default no limit */
  timeoutMs?: number;
}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
}

/** The output of a read that succeeded (runGit). */
export type GitOutput = Pick<GitResult, 'stdout' | 'truncated'>;

/**
 * Runs one git command in `cwd`: Baton's one way of running git. Never throws for a failing
 * command (its exit code and stderr are in the result).
 * @throws BatonError INTERNAL when git could not start (not installed, `cwd` missing), naming the folder
 */
export async function git(args: readonly string[], cwd: string, options: GitOptions = {}): Promise<GitResult> {
  try {
    const result = await runCommand({
      file: 'git',
      args: [...GIT_OPTIONS, ...args],
      cwd,
      env: { ...GIT_ENV, ...options.env },
      maxBytes: options.maxBytes ?? DEFAULT_GIT_MAX_BYTES,
      maxStderr: 8000,
      ...(options.niceness ? { niceness: options.niceness } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    const stderr = result.timedOut ? `${result.stderr}\ngit ${args[0]} stopped after ${options.timeoutMs} ms` : result.stderr;
    return { code: result.code ?? 1, stdout: result.stdout.toString('utf8'), stderr, truncated: result.truncated };
  } catch (error) {
    const why = error instanceof CommandStartError && error.code === 'ENOENT' ? `${notStarted(cwd)} (ENOENT)` : (error as Error).message;
    throw new BatonError('INTERNAL', `git could not start in ${cwd}: ${why}`, { cause: error, details: { cwd } });
  }
}

/**
 * Runs git and returns its stdout trimmed.
 * @throws BatonError INTERNAL naming the command, the folder and git's message when it fails
 */
export async function gitOk(args: readonly string[], cwd: string, options: GitOptions = {}): Promise<string> {
  const result = await git(args, cwd, options);
  if (result.code !== 0) {
    throw new BatonError('INTERNAL', `git ${args.join(' ')} failed in ${cwd}: ${result.stderr.trim() || `exit ${result.code}`}`, {
      details: { args: [...args], cwd, exitCode: result.code },
    });
  }
  return result.stdout.trim();
}

/**
 * Runs a git read and returns its stdout; output cut at `maxBytes` counts as success (flagged).
 * @throws BatonError INTERNAL with git's stderr when it exits non-zero
 */
export async function runGit(args: readonly string[], cwd: string, maxBytes = DEFAULT_GIT_MAX_BYTES, niceness = 0): Promise<GitOutput> {
  const result = await git(args, cwd, { maxBytes, niceness });
  if (result.code === 0 || result.truncated) return { stdout: result.stdout, truncated: result.truncated };
  throw new BatonError('INTERNAL', `git ${args[0]} failed: ${result.stderr.trim() || `exit ${result.code}`}`, {
    details: { args: [...args], exitCode: result.code },
  });
}

/** Why git could not start in `cwd` (ENOENT): no such folder, not a folder, or no git. */
function notStarted(cwd: string): string {
  if (!existsSync(cwd)) return 'the folder does not exist';
  return statSync(cwd).isDirectory() ? 'git is not installed (not on PATH)' : 'it is not a folder';
}
