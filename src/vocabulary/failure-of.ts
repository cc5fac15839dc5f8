import { describeToolCall } from './describe-tool-call.js';
import { exitCodeOf } from './exit-code-of.js';
import { findFailureLine } from './pick-failure-line.js';

/** What a caller knows of one call's result. */
export interface CallResult {
  name: string;
  args: unknown;
  output: string;
  /** The client's error flag (`is_error`, `status: "error"`, `success: false`), when it gives one. */
  isError?: boolean;
  /** An exit code the client reported apart from the text. */
  exitCode?: number;
  /** Result metadata that may hold `exit_code` (Codex, OpenHands). */
  metadata?: unknown;
}

/** Whether a call failed, its exit code, and the line that says why. */
export interface CallFailure {
  failed: boolean;
  exitCode?: number;
  /** pickFailureLine of the output, for a failed call. */
  line?: string;
}

/** Ranks of findFailureLine that say a failure on their own: an assertion or an error with its message. */
const STRONG_RANK = 1;

/**
 * Whether a call failed, from the vocabulary: the client's error flag, else a non-zero exit code
 * (reported, in metadata, or stated in the text: exitCodeOf). When the client says neither (a
 * SWE-agent bash action, an OpenAI tool message), a shell, edit or write call whose output holds
 * an assertion or an error with its message (a traceback's last line, `error: …`, `command not
 * found`) counts as failed; reads, searches and web results never do, since the code they show
 * holds such words. Pure.
 */
export function failureOf(result: CallResult): CallFailure {
  const exitCode = result.exitCode ?? exitCodeOf(result.output, result.metadata);
  const code = exitCode === undefined ? {} : { exitCode };
  let failed: boolean;
  if (result.isError !== undefined) failed = result.isError || (exitCode !== undefined && exitCode !== 0);
  else if (exitCode !== undefined) failed = exitCode !== 0;
  else failed = unflaggedFailure(result);
  if (!failed) return { failed, ...code };
  const line = findFailureLine(result.output)?.line;
  return { failed, ...code, ...(line === undefined ? {} : { line }) };
}

function unflaggedFailure(result: CallResult): boolean {
  const kind = describeToolCall(result.name, result.args).kind;
  if (kind !== 'shell' && kind !== 'edit' && kind !== 'write' && kind !== 'other') return false;
  const found = findFailureLine(result.output);
  return found !== undefined && found.rank <= STRONG_RANK;
}
