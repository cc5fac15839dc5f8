import { statSync } from 'node:fs';
import { DEFAULT_OUTPUT_CAP_BYTES, runSupervised, type SupervisedResult } from '../../spawner/index.js';

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
  /** Stops a process stuck retrying (see SuperviseRequest.stallLine). */
  stallLine?: { pattern: string; count: number };
}

export type RunProcessResult = SupervisedResult;

/**
 * Runs argv in its own process group and always resolves (never throws for a failing child).
 * Baton's timeout and the abort signal kill the whole group, SIGTERM then SIGKILL after a grace
 * period, so grandchildren an agent started die too. Processes left in the group when the main
 * process exits are terminated as well: an agent run must not leak daemons into the workspace.
 * The process is spawned directly (src/spawner).
 */
export function runProcess(argv: readonly string[], options: RunProcessOptions): Promise<RunProcessResult> {
  const [file = '', ...args] = argv;
  const refusal = refuseToStart(file, options);
  if (refusal !== undefined) return Promise.resolve(refusal);
  return runSupervised(
    {
      file,
      args,
      cwd: options.cwd,
      env: options.env ?? {},
      ...(options.inheritEnv === false ? { inheritEnv: false } : {}),
      input: options.input ?? '',
      timeoutMs: options.timeoutMs,
      killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
      ...(options.stallLine ? { stallLine: options.stallLine } : {}),
    },
    { ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}), ...(options.signal ? { signal: options.signal } : {}) },
  );
}

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

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
