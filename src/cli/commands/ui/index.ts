import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton ui`: a read-only web view of the ledger in the browser, updated live. */
export const registerUi: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('ui'))
    .description(
      'serve a read-only web page of the ledger: tasks, each try and the context injected at each seam, providers, session recovery, panels, and on a Redis ledger the job queue (counts, workers, read-only bull-board if installed); live while `baton run` writes',
    )
    .option('--port <n>', 'HTTP port (0 picks a free one)', '8766')
    .option('--host <host>', 'bind address; anything but loopback requires --token', '127.0.0.1')
    .option('--token <token>', 'token the browser must present: open URL?token=T once (env BATON_UI_TOKEN)')
    .option('--workspace <dir>', 'workspace whose git state and snapshots session recovery reads (default: current folder)')
    .addHelpText(
      'after',
      '\nExamples:\n  baton ui                                  # http://127.0.0.1:8766/ over .baton/agent.db\n  baton ui --ledger sqlite:/tmp/demo/.baton/agent.db --port 0\n  baton ui --host 0.0.0.0 --token "$(openssl rand -hex 16)"\n  baton ui --ledger redis://127.0.0.1:6379/0   # + /queue; npm install @bull-board/api @bull-board/express for its dashboard\n',
    )
    .action(lazyAction(io, state, async () => (await import('./action.js')).runUi));
};
