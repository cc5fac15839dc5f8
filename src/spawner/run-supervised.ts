import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { CappedOutput } from './capped-output.js';
import { type StallLine, type StallWatcher, stallWatcher } from './stall-watcher.js';

/** A process run under supervision (an agent, a check). */
export interface SuperviseRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  /** Added over this process's environment, or the whole environment with `inheritEnv: false`. */
  env: Readonly<Record<string, string | undefined>>;
  /** @default true */
  inheritEnv?: boolean;
  /** Written to stdin, which is then closed. */
  input: string;
  /** Wall-clock limit; the whole process group is killed when it passes. */
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when the group is stopped. */
  killGraceMs: number;
  /** Bytes kept per stream (head and tail). */
  outputCapBytes: number;
  /**
   * Stops the group once `count` stdout lines in a row match `pattern` (a RegExp source): a CLI
   * retrying for ever (codex waiting for an unreachable endpoint). Other non-empty lines reset the count.
   */
  stallLine?: StallLine;
}

export interface SupervisedResult {
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
  /** The last stdout line that matched `stallLine` when the group was stopped for it. */
  stalled?: string;
  /**
   * Why the process could not start: ENOENT (no such binary), EACCES, E2BIG (its arguments and
   * environment are longer than the system takes), or ENOCWD (no such folder).
   */
  spawnError?: { code: string; message: string };
  durationMs: number;
}

export interface SuperviseHooks {
  /** Called once right after the process started, with its pid (also its process group id). */
  onSpawn?: (pid: number) => void;
  /** Aborting kills the process group like a timeout does. */
  signal?: AbortSignal;
}

/**
 * Runs the request in its own process group, spawned directly (node:child_process; see
 * runCommand), and always resolves (never throws for a failing child). The timeout and the abort
 * signal kill the whole group, SIGTERM then SIGKILL after the grace period, so grandchildren an
 * agent started die too; so are processes left in the group when the main process exits.
 */
export function runSupervised(request: SuperviseRequest, hooks: SuperviseHooks = {}): Promise<SupervisedResult> {
  const started = performance.now();
  const env = request.inheritEnv === false ? { ...request.env } : { ...process.env, ...request.env };
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(request.file, [...request.args], { cwd: request.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    // Node throws some start failures instead of emitting them (E2BIG from a huge argument):
    // the process never ran, and says so like any other start failure.
    return Promise.resolve(notStarted(request, env, error as NodeJS.ErrnoException, performance.now() - started));
  }
  const group = groupStopper(child.pid, request.killGraceMs, [child.stdout, child.stderr]);
  const watch = stallWatcher(request.stallLine, () => group.stop());
  const stdout = capture(child.stdout, request.outputCapBytes, watch);
  const stderr = capture(child.stderr, request.outputCapBytes);
  const ended = { timedOut: false, aborted: false };
  const timer = setTimeout(() => {
    ended.timedOut = true;
    group.stop();
  }, request.timeoutMs);
  const onAbort = () => {
    ended.aborted = true;
    group.stop();
  };
  hooks.signal?.addEventListener('abort', onAbort, { once: true });
  if (child.pid !== undefined) {
    try {
      hooks.onSpawn?.(child.pid);
    } catch {
      // A recording failure must not leave the process unwatched; the caller logs its own errors.
    }
  }
  if (hooks.signal?.aborted) onAbort();
  // EPIPE: the agent does not read stdin; the prompt file still carries the prompt.
  child.stdin.on('error', () => undefined);
  child.stdin.end(request.input);
  // Leftover members of the group (background jobs) would hold the pipes and outlive the run.
  child.once('exit', () => group.stop());
  return new Promise((resolve) => {
    const finish = (end: Pick<SupervisedResult, 'exitCode' | 'signal' | 'spawnError'>) => {
      clearTimeout(timer);
      group.cancelKill();
      hooks.signal?.removeEventListener('abort', onAbort);
      const stalled = watch.stalled === undefined ? {} : { stalled: watch.stalled };
      const output = { stdout: stdout.text(), stderr: stderr.text(), stdoutTruncated: stdout.truncated, stderrTruncated: stderr.truncated };
      resolve({ ...end, ...output, ...ended, ...stalled, durationMs: performance.now() - started });
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish({ spawnError: { code: error.code ?? 'ESPAWN', message: error.message } });
    });
    child.once('close', (code, signal) => finish({ ...(code === null ? {} : { exitCode: code }), ...(signal === null ? {} : { signal }) }));
  });
}

function notStarted(
  request: SuperviseRequest,
  env: Readonly<Record<string, string | undefined>>,
  error: NodeJS.ErrnoException,
  durationMs: number,
): SupervisedResult {
  const code = error.code ?? 'ESPAWN';
  const message =
    code === 'E2BIG'
      ? `spawn E2BIG: ${commandLineSize(request, env)} bytes of arguments and environment, more than the system takes`
      : error.message;
  const output = { stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false };
  return { ...output, timedOut: false, aborted: false, spawnError: { code, message }, durationMs };
}

/** What execve is handed: every argument and environment entry, each NUL-terminated. */
function commandLineSize(request: SuperviseRequest, env: Readonly<Record<string, string | undefined>>): number {
  let bytes = Buffer.byteLength(request.file) + 1;
  for (const arg of request.args) bytes += Buffer.byteLength(arg) + 1;
  for (const [key, value] of Object.entries(env)) if (value !== undefined) bytes += Buffer.byteLength(key) + Buffer.byteLength(value) + 2;
  return bytes;
}

function capture(stream: Readable | null, capBytes: number, watch?: StallWatcher): CappedOutput {
  const output = new CappedOutput(capBytes);
  stream?.on('data', (chunk: Buffer) => {
    output.push(chunk);
    watch?.push(chunk);
  });
  return output;
}

/** Stops the process group `pid` leads: SIGTERM now, SIGKILL after the grace period. */
function groupStopper(pid: number | undefined, graceMs: number, pipes: readonly (Readable | null)[]) {
  let killTimer: NodeJS.Timeout | undefined;
  return {
    stop: () => {
      if (pid === undefined) return;
      signalGroup(pid, 'SIGTERM');
      killTimer ??= setTimeout(() => {
        signalGroup(pid, 'SIGKILL');
        // A grandchild that ignored SIGTERM may still hold the pipes open; stop waiting on them.
        for (const pipe of pipes) pipe?.destroy();
      }, graceMs);
    },
    cancelKill: () => clearTimeout(killTimer),
  };
}

/** Sends `sig` to the process group `pid` leads, if it is still there. */
export function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}
