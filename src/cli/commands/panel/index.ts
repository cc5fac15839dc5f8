import { lazyAction, withCommonOptions, type RegisterCommand, PANEL_CONFIG_HELP } from '../../context.js';

/** `baton panel --config panel.json "QUESTION"`: agents answer in turn, sharing context (seed 003). */
export const registerPanel: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('panel'), PANEL_CONFIG_HELP)
    .description('ask a panel of agents one question; each later agent sees the earlier answers')
    .argument('<question...>', 'the question (quote it, or pass it as several words)')
    .option('--attribution <mode>', 'how earlier answers are passed: assistant | user (overrides the panel file)')
    .option('--providers-config <file>', 'baton.config.json declaring the providers of "baton" agents (default .baton/baton.config.json)')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runPanelCommand));
};
