import type { RunProcessResult } from './run-process.js';

/** stdout then stderr (labelled), as one string for ProviderResult.output. */
export function combineOutput(run: RunProcessResult): { output: string; outputTruncated: boolean } {
  const stderr = run.stderr.trim() === '' ? '' : `${run.stdout === '' || run.stdout.endsWith('\n') ? '' : '\n'}[stderr]\n${run.stderr}`;
  return { output: run.stdout + stderr, outputTruncated: run.stdoutTruncated || run.stderrTruncated };
}
