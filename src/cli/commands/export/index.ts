import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton export [--out FILE]`: every record as JSON Lines. */
export const registerExport: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('export'))
    .description('write every ledger record as JSON Lines (stdout, or --out FILE)')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runExport));
};
