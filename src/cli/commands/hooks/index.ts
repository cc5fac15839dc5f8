import { withJsonOption, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton hooks install|uninstall|status`: Baton inside Claude Code's, Gemini CLI's and Codex CLI's own sessions. */
// --json only: the hooks act on the workspace's own .baton/ (its config and ledger), as the agent CLI will.
export const registerHooks: RegisterCommand = (program, io, state) => {
  const hooks = program
    .command('hooks')
    .description('wire Baton into Claude Code, Gemini CLI or Codex CLI through their lifecycle hooks (docs/hooks.md)');
  withJsonOption(hooks.command('install'))
    .description("add Baton's hooks to the client's settings, kept beside your own (a backup and a diff are shown)")
    .requiredOption('--client <client>', 'claude | gemini | codex')
    .option('--scope <scope>', 'project (settings in this project) | user (your settings for every project)', 'project')
    .option('--dry-run', 'show what would change; write nothing')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runHooksInstall));
  withJsonOption(hooks.command('uninstall'))
    .description("remove Baton's hooks from the client's settings (your own hooks stay)")
    .requiredOption('--client <client>', 'claude | gemini | codex')
    .option('--scope <scope>', 'project | user', 'project')
    .option('--dry-run', 'show what would change; write nothing')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runHooksUninstall));
  withJsonOption(hooks.command('status'))
    .description('where the hooks are installed, what is missing, and the last problems they logged')
    .option('--client <client>', 'claude | gemini | codex (default: all three)')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runHooksStatus));
};
