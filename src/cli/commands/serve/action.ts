import { startPanelServer } from '../../../panel/index.js';
import { EXIT_OK, parsePort, printResult, untilSignal, type CliIO, type CommonOptions } from '../../context.js';
import { openPanelCommand } from '../panel/load-panel-providers.js';

export interface ServeCommandOptions extends CommonOptions {
  port?: string;
  host?: string;
  providersConfig?: string;
}

/**
 * Serves the panel until SIGINT or SIGTERM (or until `stop` resolves, for tests), then closes
 * the server and the ledger. Port 0 picks a free port; the URL is printed either way.
 */
export async function runServeCommand(io: CliIO, options: ServeCommandOptions, stop?: Promise<unknown>): Promise<number> {
  const port = parsePort(options.port ?? '8787', '--port');
  const { config, providers, ledger, summaryCache } = await openPanelCommand(io, 'serve', options);
  try {
    const running = await startPanelServer({
      config,
      runOptions: { ledger, summaryCache, providers, cwd: io.cwd },
      host: options.host,
      port,
    });
    const agents = config.agents.map((agent) => agent.name);
    // The handlers are in place before the ready line: a supervisor may stop the server on it.
    const stopped = stop ?? untilSignal();
    printResult(
      io,
      options,
      { url: running.url, endpoint: `${running.url}/panel`, agents, ledger: ledger.location },
      () => `Panel (${agents.join(', ')}) listening on ${running.url}: POST /panel {"question": "…"}; Ctrl-C stops`,
    );
    await stopped;
    await running.close();
  } finally {
    await ledger.close();
  }
  return EXIT_OK;
}
