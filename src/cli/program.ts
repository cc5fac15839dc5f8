import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands.js';
import { type CliIO, EXIT_BAD_INPUT, reportError } from './context.js';

/** The package's version, read from package.json (bin/baton.js prints the same for a bare `--version`). */
export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/**
 * Runs the `baton` CLI and resolves to its exit code. Only bin/baton.js exits the process.
 * Commands set the code through the `state` object; thrown errors are mapped by reportError.
 */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const state = { exitCode: 0 };
  const program = new Command('baton')
    .description('Keeps AI coding agents\' context continuous at every seam, from one durable ledger.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  registerCommands(program, io, state);
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
