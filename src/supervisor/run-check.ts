import { runProcess } from '../providers/index.js';
import { definedFields } from '../util/index.js';
import type { CheckResult } from '../workspace/index.js';

/** Output kept from one check (head and tail). */
export const DEFAULT_CHECK_OUTPUT_CAP_BYTES = 64 * 1024;

export interface RunCheckOptions {
  cwd: string;
  /** Wall-clock limit; the check's whole process group is killed when it passes. */
  timeoutMs: number;
  /** @default DEFAULT_CHECK_OUTPUT_CAP_BYTES */
  outputCapBytes?: number;
  /** SIGTERM-to-SIGKILL grace. @default DEFAULT_KILL_GRACE_MS */
  killGraceMs?: number;
}

/**
 * Runs an acceptance-criterion check (a shell string, via `sh -c`) and reports whether it passed.
 * stderr is merged into stdout so the output reads in the order it was written. Never throws for
 * a failing command; a missing shell or folder gives ok: false with the reason in output.
 */
export async function runCheck(command: string, options: RunCheckOptions): Promise<CheckResult> {
  const run = await runProcess(['sh', '-c', `exec 2>&1\n${command}`], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    outputCapBytes: options.outputCapBytes ?? DEFAULT_CHECK_OUTPUT_CAP_BYTES,
    ...definedFields({ killGraceMs: options.killGraceMs }),
  });
  let output = run.stdout;
  if (run.spawnError !== undefined) output = `could not run check: ${run.spawnError.message}`;
  else if (run.timedOut) output += `${output === '' || output.endsWith('\n') ? '' : '\n'}[check timed out after ${options.timeoutMs} ms]`;
  const result: CheckResult = {
    ok: run.exitCode === 0 && !run.timedOut && !run.aborted,
    output,
    outputTruncated: run.stdoutTruncated,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
  };
  if (run.exitCode !== undefined) result.exitCode = run.exitCode;
  return result;
}
