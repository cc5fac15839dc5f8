import { BatonError } from '../errors/index.js';
import { runCommand } from '../spawner/index.js';

/** @default 8 MiB: output past this is cut (and flagged), so a huge diff cannot exhaust memory. */
export const DEFAULT_GIT_MAX_BYTES = 8 * 1024 * 1024;

export interface GitOutput {
  stdout: string;
  truncated: boolean;
}

/**
 * Runs one git command in `cwd` and returns its stdout. Stops reading (and kills git) once
 * `maxBytes` is reached; `niceness` lowers its CPU priority (see CollectRequest). Throws
 * INTERNAL with git's stderr when it exits non-zero.
 */
export async function runGit(args: readonly string[], cwd: string, maxBytes = DEFAULT_GIT_MAX_BYTES, niceness = 0): Promise<GitOutput> {
  let result: Awaited<ReturnType<typeof runCommand>>;
  try {
    // Pagers, prompts and locale-dependent output would all break parsing.
    result = await runCommand({
      file: 'git',
      args: ['-c', 'core.quotepath=off', '--no-pager', ...args],
      cwd,
      env: { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
      maxBytes,
      maxStderr: 4000,
      ...(niceness ? { niceness } : {}),
    });
  } catch (error) {
    throw new BatonError('INTERNAL', `git could not start: ${(error as Error).message}`, { cause: error });
  }
  const stdout = result.stdout.toString('utf8');
  if (result.code === 0 || result.truncated) return { stdout, truncated: result.truncated };
  throw new BatonError('INTERNAL', `git ${args[0]} failed: ${result.stderr.trim() || `exit ${result.code}`}`, {
    details: { args: [...args], exitCode: result.code },
  });
}
