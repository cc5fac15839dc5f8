import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton import FILE`: loads a JSON Lines export, all or nothing. */
export const registerImport: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('import <file>'))
    .description('load a JSON Lines export (from baton export) into the ledger; "-" reads stdin')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runImport));
};
