import type { OutcomeKind } from '../../ledger/index.js';
import type { ParsedAgentOutput } from '../agents/types.js';
import type { Outcome } from '../types.js';
import { matchKnownPhrase, matchUsageError } from './known-phrases.js';
import { parseResetAt } from './parse-reset-at.js';
import { stripEchoedPrompt } from './strip-prompt.js';

/** Exit codes shells and runtimes use for "could not run the program". */
const NOT_RUNNABLE: Readonly<Record<number, OutcomeKind>> = { 126: 'config_error', 127: 'config_error' };
/** Lines of stdout scanned after a clean exit: an answer that discusses rate limits must stay ok. */
const CLEAN_EXIT_TAIL_LINES = 3;

export interface ClassifyOutcomeInput {
  /** Provider type (gemini, codex, claude, copilot, cursor, command, ...). */
  provider: string;
  exitCode?: number;
  /** Signal that ended the process (e.g. "SIGKILL"), when one did. */
  signal?: string;
  stdout: string;
  stderr: string;
  /** The CLI's structured output, already parsed. */
  parsed?: ParsedAgentOutput;
  /** Baton's wall clock stopped the run. */
  timedOut: boolean;
  /** The caller's abort signal stopped the run. @default false */
  aborted?: boolean;
  /** The process never started. */
  spawnError?: { code: string; message: string };
  /** The program that was run, for config_error messages. */
  binary?: string;
  /** The baton.config.json field that names the program: "binary" (agent CLIs) or "command". @default 'binary' */
  programField?: 'binary' | 'command';
  /** Documented exit codes of this CLI. @default {} */
  exitCodes?: Readonly<Record<number, OutcomeKind>>;
  /** Clock for relative reset times ("try again in 2 hours"). */
  now: number;
  /**
   * The prompt Baton sent. Output that echoes it is not read for failure phrases: the prompt's
   * seam blocks name earlier failures ("failed: rate_limited") that did not happen to this run.
   */
  prompt?: string;
}

/**
 * Decides what one agent run means (REFERENCE.md's outcome table). Reads, in order: Baton's own
 * stop (timeout, abort, spawn failure), the structured output, the known failure phrases, then the
 * exit code. Pure: the same input always gives the same outcome; trusts its types (built in code).
 */
export function classifyOutcome(input: ClassifyOutcomeInput): Outcome {
  if (input.timedOut) return { kind: 'timeout', reason: `${input.provider} did not finish within Baton's time limit` };
  if (input.aborted) return { kind: 'interrupted', reason: `${input.provider} run was aborted` };
  if (input.spawnError !== undefined) return spawnOutcome(input);
  // A process that did not exit never finished its work, whatever it printed before dying.
  if (input.signal !== undefined) return signalOutcome(input.provider, input.signal);
  return classifyOutput(withoutPrompt(input));
}

/** The input with Baton's prompt taken out of everything the CLI printed. */
function withoutPrompt(input: ClassifyOutcomeInput): ClassifyOutcomeInput {
  if (input.prompt === undefined) return input;
  const strip = (text: string): string => stripEchoedPrompt(text, input.prompt);
  const parsed = input.parsed && {
    ...input.parsed,
    errorText: input.parsed.errorText && strip(input.parsed.errorText),
    response: input.parsed.response && strip(input.parsed.response),
  };
  return { ...input, stdout: strip(input.stdout), stderr: strip(input.stderr), parsed };
}

/** What a process that exited says about itself: structured output, phrases, then the exit code. */
function classifyOutput(input: ClassifyOutcomeInput): Outcome {
  const parsed = input.parsed;
  const errorText = [parsed?.errorText, parsed?.isError ? parsed.response : undefined].filter(Boolean).join('\n');
  if (parsed?.kind !== undefined) {
    return withReset(
      { kind: parsed.kind, reason: firstLine(errorText) ?? `${input.provider} reported ${parsed.kind}` },
      parsed,
      errorText,
      input.now,
    );
  }
  const failed = parsed?.isError === true || (input.exitCode !== 0 && input.exitCode !== undefined);
  if (parsed?.structured && !failed) return { kind: 'ok' };
  // A CLI that refused its command line never started a session: no model spoke.
  const usage = failed && !parsed?.structured ? matchUsageError([input.stderr, input.stdout].join('\n')) : undefined;
  if (usage !== undefined) return { kind: 'config_error', reason: `${input.provider} rejected its command line: ${usage}` };

  const scanned = failed
    ? [errorText, input.stderr, input.stdout].join('\n')
    : [input.stderr, input.stdout.trimEnd().split('\n').slice(-CLEAN_EXIT_TAIL_LINES).join('\n')].join('\n');
  const phrase = matchKnownPhrase(scanned);
  if (phrase !== undefined) return withReset({ kind: phrase.kind, reason: phrase.line }, parsed, scanned, input.now);

  const byCode = input.exitCode === undefined ? undefined : (input.exitCodes?.[input.exitCode] ?? NOT_RUNNABLE[input.exitCode]);
  if (byCode !== undefined) {
    return withReset({ kind: byCode, reason: `${input.provider} exited with code ${input.exitCode}` }, parsed, scanned, input.now);
  }
  if (!failed) return { kind: 'ok' };
  const reason =
    firstLine(errorText) ??
    firstLine(withoutWarnings(input.stderr)) ??
    firstLine(input.stderr) ??
    (input.exitCode === undefined ? `${input.provider} was stopped by a signal` : `${input.provider} exited with code ${input.exitCode}`);
  return { kind: 'agent_error', reason };
}

/** Why a signal usually reaches an agent Baton did not stop itself. */
const SIGNAL_CAUSES: Readonly<Record<string, string>> = {
  SIGKILL: 'killed: out of memory, or by another process',
  SIGSEGV: 'crashed: segmentation fault',
  SIGBUS: 'crashed: bus error',
  SIGILL: 'crashed: illegal instruction',
  SIGFPE: 'crashed: arithmetic error',
  SIGABRT: 'aborted itself',
  SIGTERM: 'terminated by another process',
  SIGINT: 'interrupted',
  SIGHUP: 'its terminal hung up',
  SIGPIPE: 'wrote to a closed pipe',
};

function signalOutcome(provider: string, signal: string): Outcome {
  const cause = SIGNAL_CAUSES[signal];
  return { kind: 'killed_by_signal', reason: `${provider} was ended by signal ${signal}${cause ? ` (${cause})` : ''} before it exited` };
}

function spawnOutcome(input: ClassifyOutcomeInput): Outcome {
  const what = input.binary ?? input.provider;
  const error = input.spawnError!;
  const reason =
    error.code === 'ENOENT'
      ? input.programField === 'command'
        ? `${input.provider}: command "${what}" not found (install it, or set "command" of provider "${input.provider}" in baton.config.json to a program that exists)`
        : `${input.provider}: binary "${what}" not found (install it, or set "binary" of provider "${input.provider}" in baton.config.json)`
      : error.code === 'EACCES'
        ? `${input.provider}: "${what}" is not executable`
        : `${input.provider}: could not start "${what}": ${error.message}`;
  return { kind: 'config_error', reason };
}

function withReset(outcome: Outcome, parsed: ParsedAgentOutput | undefined, text: string, now: number): Outcome {
  if (outcome.kind !== 'rate_limited' && outcome.kind !== 'quota_exhausted') return outcome;
  const resetAt = parsed?.resetAt ?? parseResetAt(text, now);
  return resetAt === undefined ? outcome : { ...outcome, resetAt };
}

function firstLine(text: string | undefined): string | undefined {
  const line = text
    ?.split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return undefined;
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** Warning lines CLIs print before the error that matters (codex: "WARNING: proceeding, even though…"). */
function withoutWarnings(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*(warning:|warn\b|\(node:\d+\) \w*warning)/i.test(line))
    .join('\n');
}
