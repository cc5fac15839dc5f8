import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton init`: creates .baton/ with the ledger and a commented config. */
export const registerInit: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('init'))
    .description('create .baton/ with the ledger (agent.db) and a commented baton.config.json')
    .option('--force', 'rewrite baton.config.json even if it exists')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runInit));
};
