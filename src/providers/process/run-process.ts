import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from './capped-output.js';

/** Time between SIGTERM and SIGKILL when Baton stops a process group. */
export const DEFAULT_KILL_GRACE_MS = 5_000;

export interface RunProcessOptions {
  cwd: string;
  /** Wall-clock limit; the whole process group is killed when it passes. */
  timeoutMs: number;
  /** Added over the parent's environment (or used alone when inheritEnv is false). @default {} */
  env?: Record<string, string | undefined>;
  /** Start from the parent's environment. @default true */
  inheritEnv?: boolean;
  /** Written to stdin, which is then closed. @default '' */
  input?: string;
  /** Aborting kills the process group like a timeout does. */
  signal?: AbortSignal;
  /** @default DEFAULT_KILL_GRACE_MS */
  killGraceMs?: number;
  /** Bytes kept per stream (head and tail). @default DEFAULT_OUTPUT_CAP_BYTES */
  outputCapBytes?: number;
  /**
   * Called once right after the process started, with its pid (also its process group id), so
   * the caller can record the group before waiting on it. Not called when it fails to start.
   */
  onSpawn?: (pid: number) => void;
}

export interface RunProcessResult {
  /** Exit code; undefined when a signal ended the process or it never started. */
  exitCode?: number;
  /** Signal that ended the process, if any. */
  signal?: string;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  /** Why the process could not start: ENOENT (no such binary), EACCES, or ENOCWD (no such folder). */
  spawnError?: { code: string; message: string };
  durationMs: number;
}

/**
 * Runs argv in its own process group and always resolves (never throws for a failing child).
 * Baton's timeout and the abort signal kill the whole group, SIGTERM then SIGKILL after a grace
 * period, so grandchildren an agent started die too. Processes left in the group when the main
 * process exits are terminated as well: an agent run must not leak daemons into the workspace.
 */
export function runProcess(argv: readonly string[], options: RunProcessOptions): Promise<RunProcessResult> {
  const started = performance.now();
  const [file = '', ...args] = argv;
  const refusal = refuseToStart(file, options);
  if (refusal !== undefined) return Promise.resolve(refusal);

  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: { ...(options.inheritEnv === false ? {} : process.env), ...options.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    reportSpawn(child, options.onSpawn);
    superviseChild(child, options, started, resolve);
  });
}

/** The fields of a result that depend on how the child ended, not on what it wrote or how long it ran. */
type ChildEnd = Pick<RunProcessResult, 'exitCode' | 'signal' | 'spawnError'>;

const NOT_STARTED = { stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, timedOut: false, aborted: false };

/** The result for a command that must not be spawned at all, or undefined when it may start. */
function refuseToStart(file: string, options: RunProcessOptions): RunProcessResult | undefined {
  if (file === '') return { ...NOT_STARTED, spawnError: { code: 'ENOENT', message: 'empty command' }, durationMs: 0 };
  if (!isDirectory(options.cwd)) {
    const message = `working directory ${options.cwd} does not exist`;
    return { ...NOT_STARTED, spawnError: { code: 'ENOCWD', message }, durationMs: 0 };
  }
  if (options.signal?.aborted) return { ...NOT_STARTED, aborted: true, durationMs: 0 };
  return undefined;
}

function reportSpawn(child: ChildProcessWithoutNullStreams, onSpawn: RunProcessOptions['onSpawn']): void {
  if (child.pid === undefined || !onSpawn) return;
  try {
    onSpawn(child.pid);
  } catch {
    // A recording failure must not leave the process unwatched; the caller logs its own errors.
  }
}

/**
 * Collects the child's output, enforces the timeout and the abort signal, and resolves once the
 * child closed its pipes or failed to start.
 */
function superviseChild(
  child: ChildProcessWithoutNullStreams,
  options: RunProcessOptions,
  started: number,
  resolve: (result: RunProcessResult) => void,
): void {
  const cap = options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const stdout = new CappedOutput(cap);
  const stderr = new CappedOutput(cap);
  const group = processGroupStopper(child, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  let timedOut = false;
  let aborted = false;
  let settled = false;

  const timer = setTimeout(() => {
    timedOut = true;
    group.stop();
  }, options.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    group.stop();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const finish = (end: ChildEnd): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    group.cancelKill();
    options.signal?.removeEventListener('abort', onAbort);
    resolve({
      ...end,
      stdout: stdout.text(),
      stderr: stderr.text(),
      stdoutTruncated: stdout.truncated,
      stderrTruncated: stderr.truncated,
      timedOut,
      aborted,
      durationMs: performance.now() - started,
    });
  };

  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on('error', () => {
    // EPIPE: the agent does not read stdin; the prompt file still carries the prompt.
  });
  child.stdin.end(options.input ?? '');

  child.on('error', (error: NodeJS.ErrnoException) => {
    finish({ spawnError: { code: error.code ?? 'ESPAWN', message: error.message } });
  });
  child.on('exit', () => {
    // Leftover members of the group (background jobs) would hold the pipes and outlive the run.
    group.stop();
  });
  child.on('close', (code, sig) => finish(childEnd(code, sig)));
}

/** Stops the child's whole process group: SIGTERM now, SIGKILL after the grace period. */
function processGroupStopper(child: ChildProcessWithoutNullStreams, graceMs: number): { stop: () => void; cancelKill: () => void } {
  let killTimer: NodeJS.Timeout | undefined;
  const signalGroup = (sig: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  return {
    stop: () => {
      signalGroup('SIGTERM');
      killTimer ??= setTimeout(() => {
        signalGroup('SIGKILL');
        // A grandchild that ignored SIGTERM may still hold the pipes open; stop waiting on them.
        child.stdout.destroy();
        child.stderr.destroy();
      }, graceMs);
    },
    cancelKill: () => {
      if (killTimer !== undefined) clearTimeout(killTimer);
    },
  };
}

function childEnd(code: number | null, sig: NodeJS.Signals | null): ChildEnd {
  const end: ChildEnd = {};
  if (code !== null) end.exitCode = code;
  if (sig !== null) end.signal = sig;
  return end;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
