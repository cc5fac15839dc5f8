import { Command, CommanderError } from 'commander';
import { BATON_VERSION } from '../version/index.js';
import { type CliIO, EXIT_BAD_INPUT, type RegisterCommand, reportError } from './context.js';

/**
 * Runs a `baton` program holding the commands `register` adds and resolves to its exit code. Only
 * bin/baton.js exits the process. Commands set the code through the `state` object; thrown errors
 * are mapped by reportError.
 */
export async function runProgram(argv: string[], io: CliIO, register: RegisterCommand): Promise<number> {
  const state = { exitCode: 0 };
  const program = new Command('baton')
    .description("Keeps AI coding agents' context continuous at every seam, from one durable ledger.")
    .version(BATON_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  register(program, io, state);
  try {
    await program.parseAsync(argv);
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return EXIT_BAD_INPUT;
    }
    return reportError(io, argv.includes('--json'), error);
  }
}
