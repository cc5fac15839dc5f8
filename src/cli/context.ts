import { access as fileAccess } from 'node:fs/promises';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { DEFAULT_CONFIG_PATH } from '../config/defaults.js';
import { BatonError, errorMessage, isBatonError } from '../errors/index.js';
import type { Ledger } from '../ledger/index.js';
import { toWireCase } from '../util/wire-case.js';

/** Shared by commands to set the process exit code without exiting. */
export interface CliState {
  exitCode: number;
}

/** What each command folder's index.ts exports: adds the command to the program. */
export type RegisterCommand = (program: Command, io: CliIO, state: CliState) => void;

/** Commander's argument parser for a repeatable option. */
export const collect = (value: string, previous: string[]) => [...previous, value];

/** Where a command reads and writes; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stdout is a terminal (live progress displays only then). */
  isTTY: boolean;
}

/** Options every command accepts. */
export interface CommonOptions {
  json?: boolean;
  ledger?: string;
  config?: string;
}

export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
  };
}

/**
 * A commander action that loads the command's code only when it runs (so `baton --help` stays
 * fast) and sets the exit code from it. Commander passes the Command itself last; it is dropped.
 */
export function lazyAction<A extends unknown[]>(
  io: CliIO,
  state: CliState,
  load: () => Promise<(io: CliIO, ...args: A) => Promise<number>>,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const run = await load();
    state.exitCode = await run(io, ...(args.slice(0, -1) as A));
  };
}

/** Adds --json alone: for commands that read no ledger or config of their own choosing (demo, hooks). */
export function withJsonOption(command: Command): Command {
  return command.addOption(new Option('--json', 'print machine-readable JSON instead of text'));
}

/**
 * Adds --json, --ledger and --config to a command. `configHelp` re-describes --config where it
 * names another file (the panel file of `baton panel` and `baton serve`).
 */
export function withCommonOptions(command: Command, configHelp = 'configuration file (default: .baton/baton.config.json)'): Command {
  return withJsonOption(command)
    .addOption(new Option('--ledger <spec>', 'ledger: sqlite:PATH | redis://HOST:PORT/DB | memory (env BATON_LEDGER)'))
    .addOption(new Option('--config <file>', configHelp));
}

/** --config of `baton panel` and `baton serve`. */
export const PANEL_CONFIG_HELP = 'the panel file (required), e.g. examples/panel/panel.json';

/**
 * Opens the ledger named by --ledger, else BATON_LEDGER, else the config file's `ledger`, else the
 * default SQLite file; relative paths resolve against the IO's cwd (the project root). With
 * `readOnly`, a command that only reads also works on a ledger it may not write (opened read-only).
 */
export async function openCliLedger(io: CliIO, options: CommonOptions & { readOnly?: boolean }): Promise<Ledger> {
  // Loaded here, not at the top: `baton --version` and `--help` must not pay for the ledger.
  // open-ledger.js, not the index: the index also exports the JSON-lines parser, which loads zod.
  const [{ openLedger }, spec] = await Promise.all([import('../ledger/open-ledger.js'), resolveLedgerSpec(io, options)]);
  return openLedger({ spec, cwd: io.cwd, readOnlyFallback: options.readOnly ?? false });
}

/** Runs `use` on the ledger openCliLedger opens, and closes it whatever `use` does. */
export async function withCliLedger<T>(
  io: CliIO,
  options: CommonOptions & { readOnly?: boolean },
  use: (ledger: Ledger) => Promise<T>,
): Promise<T> {
  const ledger = await openCliLedger(io, options);
  try {
    return await use(ledger);
  } finally {
    await ledger.close();
  }
}

/** The ledger spec a command would use (see openCliLedger), or undefined for the default. */
export async function resolveLedgerSpec(io: CliIO, options: CommonOptions): Promise<string | undefined> {
  const explicit = options.ledger ?? io.env.BATON_LEDGER ?? io.env.BATON_REDIS_URL;
  if (explicit) return explicit;
  // No config file at all: the default ledger, without loading the config schema (zod) on the way.
  if (options.config === undefined && !(await exists(path.resolve(io.cwd, DEFAULT_CONFIG_PATH)))) return undefined;
  const { loadConfig } = await import('../config/index.js');
  const config = await loadConfig({ cwd: io.cwd, file: options.config, env: io.env });
  return config.ledger;
}

export async function exists(file: string): Promise<boolean> {
  return fileAccess(file).then(
    () => true,
    () => false,
  );
}

/**
 * Resolves with the first SIGINT or SIGTERM: how a server command runs until stopped. The handlers
 * are in place when it returns, so a ready line printed after it is safe to act on.
 */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (signal: NodeJS.Signals) => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve(signal);
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

/** Prints a result: JSON when --json, else the rendered text. */
export function printResult(io: CliIO, options: CommonOptions, value: unknown, render: () => string): void {
  if (options.json) io.stdout(`${JSON.stringify(toWireCase(value), null, 2)}\n`);
  else {
    const text = render();
    if (text) io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** Exit codes: 0 ok, 1 the command's own failure, 2 bad input. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

/** Maps an error to an exit code and prints it (JSON on stdout when --json, else stderr). */
export function reportError(io: CliIO, json: boolean, error: unknown): number {
  const code = isBatonError(error) ? error.code : 'INTERNAL';
  const exit = isBatonError(error) && error.isUserError ? EXIT_BAD_INPUT : EXIT_FAILURE;
  const details = isBatonError(error) ? error.details : {};
  if (json) io.stdout(`${JSON.stringify(toWireCase({ error: { code, message: errorMessage(error), ...details } }), null, 2)}\n`);
  else io.stderr(`baton: ${errorMessage(error)}\n`);
  return exit;
}

/** Throws INPUT_INVALID for a flag value that is not a positive integer. */
export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new BatonError('INPUT_INVALID', `${flag} must be a positive integer, got "${value}"`, {
      details: { field: flag, value },
    });
  }
  return n;
}

/** Throws INPUT_INVALID for a flag value that is not one of `choices`. */
export function parseChoice<T extends string>(value: string, choices: readonly T[], flag: string): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new BatonError('INPUT_INVALID', `${flag} must be one of ${choices.join(', ')}; got ${JSON.stringify(value)}`, {
    details: { field: flag, value },
  });
}

/** Throws INPUT_INVALID for a flag value that is not a port number (0 lets the system pick). */
export function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new BatonError('INPUT_INVALID', `${flag} must be a port number from 0 to 65535, got "${value}"`, {
      details: { field: flag, value },
    });
  }
  return port;
}
