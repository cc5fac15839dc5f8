import type { Command } from 'commander';
import type { RegisterCommand } from '../../command-types.js';
import { type CommonOptions, withCommonOptions } from '../../context.js';

/** `baton init`: creates .baton/ with the ledger and a commented config. */
export const registerInit: RegisterCommand = (program: Command, io, state) => {
  withCommonOptions(program.command('init'))
    .description('create .baton/ with the ledger (agent.db) and a commented baton.config.json')
    .option('--force', 'rewrite baton.config.json even if it exists')
    .action(async (options: CommonOptions & { force?: boolean }) => {
      const { runInit } = await import('./action.js');
      state.exitCode = await runInit(io, options);
    });
};
