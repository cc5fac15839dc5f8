import { withCommonOptions, lazyAction, type RegisterCommand, PANEL_CONFIG_HELP } from '../../context.js';

/** `baton serve --config panel.json`: the panel over HTTP (POST /panel), loopback by default. */
export const registerServe: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('serve'), PANEL_CONFIG_HELP)
    .description('serve the panel over HTTP: POST /panel {"question"} (JSON, or SSE with Accept: text/event-stream)')
    // Literals, not the panel server's DEFAULT_* constants: importing them here would load the HTTP
    // stack on every `baton --help`.
    .option('--port <n>', 'port to listen on', '8787')
    .option('--host <host>', 'address to bind (keep the default unless the network is trusted)', '127.0.0.1')
    .option('--providers-config <file>', 'baton.config.json declaring the providers of "baton" agents (default .baton/baton.config.json)')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runServeCommand));
};
