import type { RegisterCommand } from '../../command-types.js';
import { type CommonOptions, parsePositiveInt, withCommonOptions } from '../../context.js';

/** `baton status`: task counts by status, open breakers, last dispatches. */
export const registerStatus: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('status'))
    .description('task counts by status, open circuit breakers, and the last dispatches')
    .option('-n, --dispatches <n>', 'how many recent dispatches to show', '10')
    .action(async (options: CommonOptions & { dispatches: string }) => {
      const { runStatus } = await import('./action.js');
      state.exitCode = await runStatus(io, { ...options, limit: parsePositiveInt(options.dispatches, '--dispatches') });
    });
};
