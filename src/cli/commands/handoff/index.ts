import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton handoff`: hand the work of an agent CLI session to the next agent CLI. */
export const registerHandoff: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('handoff'))
    .description('start the next agent CLI with a handoff from a session of this workspace (any client) as its first prompt')
    .option('--from <client|session>', 'the source: a client (its newest session) or a session id (default: the newest session)')
    .option('--to <client>', 'claude | codex | gemini | copilot | opencode (default: codex after a Claude Code session, else claude)')
    .option('--budget <tokens>', "the handoff's size at most, in tokens", '2500')
    .option('--print', 'print the handoff instead of starting the target CLI')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runHandoff));
};
