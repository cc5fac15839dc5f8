import { type ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/** One short command whose whole output the caller reads (git, mostly). */
export interface CommandRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  /** Added over this process's environment. @default {} */
  env?: Readonly<Record<string, string>>;
  /** stdout past this is cut, `truncated` set and the command stopped. */
  maxBytes: number;
  /** stderr kept, in characters (the rest is dropped; the command is not stopped for it). */
  maxStderr: number;
  /** Set on the command as soon as it starts (Unix nice, 0-19): work off a task's path yields the CPU. */
  niceness?: number;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: Uint8Array;
  /** The command is stopped (SIGTERM) when it runs longer. @default no limit */
  timeoutMs?: number;
}

export interface CommandResult {
  /** null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
}

/** A command that could not start; `code` is Node's (ENOENT for a missing binary or folder). */
export class CommandStartError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'CommandStartError';
  }
}

/**
 * Runs one short command to completion, spawned directly (node:child_process: execa's own start-up,
 * 200-500 ms at the first spawn of a process on this machine, would land on every `baton hook` and
 * `baton mcp` start), and returns its output; never throws for a failing command.
 * @throws CommandStartError when the command could not start
 */
export function runCommand(request: CommandRequest): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      const stdin = request.input ? 'pipe' : 'ignore';
      child = spawn(request.file, [...request.args], {
        cwd: request.cwd,
        env: { ...process.env, ...request.env },
        stdio: [stdin, 'pipe', 'pipe'],
      });
    } catch (error) {
      reject(new CommandStartError((error as Error).message, (error as NodeJS.ErrnoException).code));
      return;
    }
    if (request.niceness && child.pid !== undefined) lowerPriority(child.pid, request.niceness);
    // EPIPE when the command exits without reading it all: its exit code says what went wrong.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(request.input);
    const output = collect(child, request);
    const timer = request.timeoutMs ? setTimeout(() => output.stop('timedOut'), request.timeoutMs) : undefined;
    // A command that cannot start reports 'error' without a pid; one that ran, 'close'.
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (child.pid === undefined) reject(new CommandStartError(error.message, error.code));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ...output.result() });
    });
  });
}

/** The command's stdout (cut at maxBytes, which stops it) and stderr (capped). */
function collect(child: ChildProcess, request: CommandRequest) {
  const chunks: Buffer[] = [];
  let size = 0;
  let stderr = '';
  const ended = { truncated: false, timedOut: false };
  const stop = (why: keyof typeof ended) => {
    ended[why] = true;
    child.kill();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    if (ended.truncated) return;
    size += chunk.length;
    chunks.push(size > request.maxBytes ? chunk.subarray(0, chunk.length - (size - request.maxBytes)) : chunk);
    if (size > request.maxBytes) stop('truncated');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < request.maxStderr) stderr += chunk.toString('utf8');
  });
  return { stop, result: () => ({ stdout: Buffer.concat(chunks), stderr: stderr.slice(0, request.maxStderr), ...ended }) };
}

function lowerPriority(pid: number, niceness: number): void {
  try {
    setPriority(pid, niceness);
  } catch {
    // Not permitted, or the command already exited: it runs at normal priority.
  }
}
