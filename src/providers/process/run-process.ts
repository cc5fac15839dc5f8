import { spawn } from 'node:child_process';
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
  const [file, ...args] = argv;
  const base = { stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, timedOut: false, aborted: false };
  if (file === undefined || file === '') {
    return Promise.resolve({ ...base, spawnError: { code: 'ENOENT', message: 'empty command' }, durationMs: 0 });
  }
  if (!isDirectory(options.cwd)) {
    const message = `working directory ${options.cwd} does not exist`;
    return Promise.resolve({ ...base, spawnError: { code: 'ENOCWD', message }, durationMs: 0 });
  }
  if (options.signal?.aborted) return Promise.resolve({ ...base, aborted: true, durationMs: 0 });

  return new Promise((resolve) => {
    const cap = options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
    const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const stdout = new CappedOutput(cap);
    const stderr = new CappedOutput(cap);
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const child = spawn(file, args, {
      cwd: options.cwd,
      env: { ...(options.inheritEnv === false ? {} : process.env), ...options.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });

    if (child.pid !== undefined && options.onSpawn) {
      try {
        options.onSpawn(child.pid);
      } catch {
        // A recording failure must not leave the process unwatched; the caller logs its own errors.
      }
    }

    const signalGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const stopGroup = (): void => {
      signalGroup('SIGTERM');
      killTimer ??= setTimeout(() => {
        signalGroup('SIGKILL');
        // A grandchild that ignored SIGTERM may still hold the pipes open; stop waiting on them.
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, grace);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stopGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (result: Omit<RunProcessResult, keyof typeof base | 'durationMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        ...result,
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
      stopGroup();
    });
    child.on('close', (code, sig) => {
      const result: Omit<RunProcessResult, keyof typeof base | 'durationMs'> = {};
      if (code !== null) result.exitCode = code;
      if (sig !== null) result.signal = sig;
      finish(result);
    });
  });
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
