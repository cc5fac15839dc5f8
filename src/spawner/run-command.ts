import { setPriority } from 'node:os';
import { loadExeca } from './load-execa.js';

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
  /** Aborting stops the command (SIGTERM). */
  signal?: AbortSignal;
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

/** stderr read at most: only a runaway command writes more (it is then stopped). */
const STDERR_BUFFER_BYTES = 4 * 1024 * 1024;

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
 * Runs one short command to completion (execa, spawned directly) and returns its output; never
 * throws for a failing command.
 * @throws CommandStartError when the command could not start
 */
export async function runCommand(request: CommandRequest): Promise<CommandResult> {
  const { execa } = await loadExeca();
  const child = execa(request.file, [...request.args], {
    cwd: request.cwd,
    env: { ...request.env },
    encoding: 'buffer',
    reject: false,
    stripFinalNewline: false,
    stdin: request.input ? 'pipe' : 'ignore',
    ...(request.input ? { input: request.input } : {}),
    maxBuffer: { stdout: request.maxBytes, stderr: STDERR_BUFFER_BYTES },
    ...(request.timeoutMs ? { timeout: request.timeoutMs } : {}),
    ...(request.signal ? { cancelSignal: request.signal } : {}),
  });
  if (request.niceness && child.pid !== undefined) lowerPriority(child.pid, request.niceness);
  const result = await child;
  if (result.exitCode === undefined && result.signal === undefined && !result.isMaxBuffer && !result.isCanceled && !result.timedOut) {
    throw new CommandStartError(result.shortMessage ?? 'could not start', result.code);
  }
  const stdout = Buffer.from(result.stdout ?? new Uint8Array());
  return {
    code: result.exitCode ?? null,
    signal: result.signal ?? null,
    stdout,
    stderr: Buffer.from(result.stderr ?? new Uint8Array())
      .toString('utf8')
      .slice(0, request.maxStderr),
    truncated: result.isMaxBuffer && stdout.length >= request.maxBytes,
    timedOut: result.timedOut,
  };
}

function lowerPriority(pid: number, niceness: number): void {
  try {
    setPriority(pid, niceness);
  } catch {
    // Not permitted, or the command already exited: it runs at normal priority.
  }
}
