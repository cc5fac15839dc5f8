import { registerCommands } from './commands.js';
import { BATON_VERSION } from '../version/index.js';
import type { CliIO } from './context.js';
import { runProgram } from './run-program.js';

/** The package's version (package.json). */
export const VERSION = BATON_VERSION;

/** Runs the `baton` CLI and resolves to its exit code. Only bin/baton.js exits the process. */
export function main(argv: string[], io: CliIO): Promise<number> {
  return runProgram(argv, io, registerCommands);
}
