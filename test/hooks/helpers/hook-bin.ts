import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../../bin/baton.js', import.meta.url));

export interface HookBinRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** When the process exited (Date.now() at its 'exit' event). */
  exitedAt: number;
}

/**
 * Runs the real `baton hook …` process as a client does (it loads dist/: build first): the
 * payload on stdin, the test runner's own environment plus `env`.
 */
export function runHookBin(args: string[], input: string | Buffer, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<HookBinRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let exitedAt = 0;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', () => (exitedAt = Date.now()));
    child.on('close', (code) => resolve({ code, stdout, stderr, exitedAt }));
    // A hook that stops reading early (its input cap) closes the pipe: not the test's failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
