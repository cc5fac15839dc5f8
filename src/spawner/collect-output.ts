import { type ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { childEnv, type EnvRequest } from './child-env.js';

/** One short command whose whole output the caller reads (git, mostly). */
export interface CollectRequest extends EnvRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  /** stdout past this is cut, `truncated` set and the command killed. */
  maxBytes: number;
  /** stderr kept, in characters. */
  maxStderr: number;
  /**
   * Set on the child as soon as it starts (Unix nice, 0-19): a read made ahead of need yields
   * the CPU to the process's own work. Threads the child starts later inherit it.
   */
  niceness?: number;
  /** Written to the command's stdin, which is then closed; without it stdin is /dev/null. */
  input?: Uint8Array;
}

export interface CollectResult {
  /** null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  truncated: boolean;
}

/** Why a command could not start (ENOENT for a missing binary), as Node reports it. */
export interface StartFailure {
  message: string;
  code?: string;
}

/**
 * Runs one command and collects its output; `done` is called once, with the result or with why
 * it could not start. The spawn helper (spawn-helper-main.ts) runs this in its own process.
 */
export function collectOutput(request: CollectRequest, done: (result: CollectResult | StartFailure) => void): void {
  let child: ChildProcess;
  try {
    const stdin = request.input ? 'pipe' : 'ignore';
    child = spawn(request.file, [...request.args], { cwd: request.cwd, env: childEnv(request), stdio: [stdin, 'pipe', 'pipe'] });
    if (request.niceness && child.pid !== undefined) lowerPriority(child.pid, request.niceness);
    // EPIPE when the command exits without reading it all: its exit code says what went wrong.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(request.input);
  } catch (error) {
    done({ message: (error as Error).message, code: (error as NodeJS.ErrnoException).code });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  let stderr = '';
  let finished = false;
  const finish = (result: CollectResult | StartFailure) => {
    if (finished) return;
    finished = true;
    done(result);
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    if (truncated) return;
    size += chunk.length;
    if (size > request.maxBytes) {
      chunks.push(chunk.subarray(0, chunk.length - (size - request.maxBytes)));
      truncated = true;
      child.kill();
      return;
    }
    chunks.push(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < request.maxStderr) stderr += chunk.toString('utf8');
  });
  // A command that cannot start (ENOENT) reports 'error' without a pid; one that ran, 'close'.
  child.on('error', (error: NodeJS.ErrnoException) => {
    if (child.pid === undefined) finish({ message: error.message, code: error.code });
  });
  child.on('close', (code, signal) => finish({ code, signal, stdout: Buffer.concat(chunks), stderr, truncated }));
}

function lowerPriority(pid: number, niceness: number): void {
  try {
    setPriority(pid, niceness);
  } catch {
    // Not permitted, or the command already exited: it runs at normal priority.
  }
}

export function isStartFailure(value: CollectResult | StartFailure): value is StartFailure {
  return !('stdout' in value);
}
