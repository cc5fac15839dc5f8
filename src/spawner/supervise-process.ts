import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CappedOutput } from './capped-output.js';
import { childEnv, type EnvRequest } from './child-env.js';

/** A process run under supervision (an agent, a check): everything it needs, as plain data. */
export interface SuperviseRequest extends EnvRequest {
  file: string;
  args: readonly string[];
  cwd: string;
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
  stallLine?: { pattern: string; count: number };
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
  /** Why the process could not start: ENOENT (no such binary), EACCES, or ENOCWD (no such folder). */
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
 * Runs the request in its own process group and always resolves (never throws for a failing
 * child). The timeout and the abort signal kill the whole group, SIGTERM then SIGKILL after the
 * grace period, so grandchildren an agent started die too; so are processes left in the group
 * when the main process exits. The spawn helper runs this in its small process (spawn-helper.ts).
 */
export function superviseProcess(request: SuperviseRequest, hooks: SuperviseHooks = {}): Promise<SupervisedResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: childEnv(request),
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined && hooks.onSpawn) {
      try {
        hooks.onSpawn(child.pid);
      } catch {
        // A recording failure must not leave the process unwatched; the caller logs its own errors.
      }
    }
    superviseChild(child, request, hooks.signal, started, resolve);
  });
}

/** The fields of a result that depend on how the child ended, not on what it wrote or how long it ran. */
type ChildEnd = Pick<SupervisedResult, 'exitCode' | 'signal' | 'spawnError'>;

/**
 * Collects the child's output, enforces the timeout and the abort signal, and resolves once the
 * child closed its pipes or failed to start.
 */
function superviseChild(
  child: ChildProcessWithoutNullStreams,
  request: SuperviseRequest,
  signal: AbortSignal | undefined,
  started: number,
  resolve: (result: SupervisedResult) => void,
): void {
  const stdout = new CappedOutput(request.outputCapBytes);
  const stderr = new CappedOutput(request.outputCapBytes);
  const group = processGroupStopper(child, request.killGraceMs);
  let timedOut = false;
  let aborted = false;
  let settled = false;
  const watch = stallWatcher(request.stallLine, () => group.stop());

  const timer = setTimeout(() => {
    timedOut = true;
    group.stop();
  }, request.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    group.stop();
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  const finish = (end: ChildEnd): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    group.cancelKill();
    signal?.removeEventListener('abort', onAbort);
    resolve({
      ...end,
      stdout: stdout.text(),
      stderr: stderr.text(),
      stdoutTruncated: stdout.truncated,
      stderrTruncated: stderr.truncated,
      timedOut,
      aborted,
      ...(watch.stalled === undefined ? {} : { stalled: watch.stalled }),
      durationMs: performance.now() - started,
    });
  };

  child.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    watch.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on('error', () => {
    // EPIPE: the agent does not read stdin; the prompt file still carries the prompt.
  });
  child.stdin.end(request.input);

  child.on('error', (error: NodeJS.ErrnoException) => {
    finish({ spawnError: { code: error.code ?? 'ESPAWN', message: error.message } });
  });
  child.on('exit', () => {
    // Leftover members of the group (background jobs) would hold the pipes and outlive the run.
    group.stop();
  });
  child.on('close', (code, sig) => finish(childEnd(code, sig)));
}

/** Counts stdout lines matching the stall rule in a row; calls `stop` once when they reach its count. */
function stallWatcher(rule: SuperviseRequest['stallLine'], stop: () => void): { push(chunk: Buffer): void; stalled?: string } {
  const watcher: { push(chunk: Buffer): void; stalled?: string } = { push: () => undefined };
  if (rule === undefined) return watcher;
  const pattern = new RegExp(rule.pattern);
  let partial = '';
  let streak = 0;
  watcher.push = (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (watcher.stalled !== undefined || line.trim() === '') continue;
      streak = pattern.test(line) ? streak + 1 : 0;
      if (streak < rule.count) continue;
      watcher.stalled = line;
      stop();
    }
  };
  return watcher;
}

/** Stops the child's whole process group: SIGTERM now, SIGKILL after the grace period. */
function processGroupStopper(child: ChildProcessWithoutNullStreams, graceMs: number): { stop: () => void; cancelKill: () => void } {
  let killTimer: NodeJS.Timeout | undefined;
  return {
    stop: () => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
      killTimer ??= setTimeout(() => {
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
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

/** Sends `sig` to the process group `pid` leads, if it is still there. */
export function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}
