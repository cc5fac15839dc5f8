import { spawn } from 'node:child_process';
import { BatonError } from '../errors/index.js';

/** @default 8 MiB: output past this is cut (and flagged), so a huge diff cannot exhaust memory. */
export const DEFAULT_GIT_MAX_BYTES = 8 * 1024 * 1024;

export interface GitOutput {
  stdout: string;
  truncated: boolean;
}

/**
 * Runs one git command in `cwd` and returns its stdout. Stops reading (and kills git) once
 * `maxBytes` is reached. Throws INTERNAL with git's stderr when it exits non-zero.
 */
export function runGit(args: readonly string[], cwd: string, maxBytes = DEFAULT_GIT_MAX_BYTES): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    // Pagers, prompts and locale-dependent output would all break parsing.
    const child = spawn('git', ['-c', 'core.quotepath=off', '--no-pager', ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
        truncated = true;
        child.kill();
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => reject(new BatonError('INTERNAL', `git could not start: ${error.message}`, { cause: error })));
    child.on('close', (code) => {
      const stdout = Buffer.concat(chunks).toString('utf8');
      if (code === 0 || truncated) resolve({ stdout, truncated });
      else {
        reject(
          new BatonError('INTERNAL', `git ${args[0]} failed: ${stderr.trim() || `exit ${code}`}`, {
            details: { args: [...args], exitCode: code },
          }),
        );
      }
    });
  });
}
