import { statSync } from 'node:fs';
import {
  DEFAULT_OUTPUT_CAP_BYTES,
  runSupervised,
  type SuperviseHooks,
  type SuperviseRequest,
  type SupervisedResult,
} from '../../spawner/index.js';

/** Time between SIGTERM and SIGKILL when Baton stops a process group. */
export const DEFAULT_KILL_GRACE_MS = 5_000;

/**
 * A SuperviseRequest without the argv, plus its hooks. Defaults: env {} (over the parent's unless
 * inheritEnv is false), input '', killGraceMs DEFAULT_KILL_GRACE_MS, outputCapBytes
 * DEFAULT_OUTPUT_CAP_BYTES.
 */
export type RunProcessOptions = Pick<SuperviseRequest, 'cwd' | 'timeoutMs'> &
  Partial<Omit<SuperviseRequest, 'file' | 'args' | 'cwd' | 'timeoutMs'>> &
  SuperviseHooks;

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
  const { onSpawn, signal, ...request } = options;
  return runSupervised(
    {
      ...request,
      file,
      args,
      env: request.env ?? {},
      input: request.input ?? '',
      killGraceMs: request.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      outputCapBytes: request.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
    },
    { onSpawn, signal },
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
