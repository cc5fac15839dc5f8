import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton sessions [list|show <id>|import]`: this workspace's agent CLI sessions, from every client's store and the ledger. */
export const registerSessions: RegisterCommand = (program, io, state) => {
  const sessions = program
    .command('sessions')
    .description(
      "this workspace's agent CLI sessions (Claude Code, Codex CLI, Gemini CLI, Copilot CLI, OpenCode), imported from their own stores",
    );
  const list = (command: typeof sessions) =>
    withCommonOptions(command).option('--client <client>', 'claude | codex | gemini | copilot | opencode (default: all)');
  list(sessions.command('list', { isDefault: true }))
    .description('import what is new, then list the sessions, newest first')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runSessionsList));
  list(sessions.command('show <id>'))
    .description('one session: its record and what its transcript says (id: the ledger id or the client session id, a prefix will do)')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runSessionsShow));
  list(sessions.command('import'))
    .description('read new and changed session files of this workspace into the ledger (unchanged files are not opened)')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runSessionsImport));
};
