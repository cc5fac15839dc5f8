import { registerCommands } from './commands.js';
import { type CliIO, processIO } from './context.js';
import { runProgram } from './run-program.js';

/** Runs the `baton` CLI and resolves to its exit code. Only bin/baton.js exits the process. */
export function runCli(argv: string[], io: CliIO): Promise<number> {
  return runProgram(argv, io, registerCommands);
}

/** Entry used by bin/baton.js. */
export function main(argv: string[]): Promise<number> {
  return runCli(argv, processIO());
}

export type { CliIO } from './context.js';
