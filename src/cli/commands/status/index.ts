import { lazyAction, withCommonOptions, type RegisterCommand } from '../../context.js';

/** `baton status`: task counts by status, open breakers, last dispatches. */
export const registerStatus: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('status'))
    .description('task counts by status, open circuit breakers, and the last dispatches')
    .option('-n, --dispatches <n>', 'how many recent dispatches to show', '10')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runStatus));
};
