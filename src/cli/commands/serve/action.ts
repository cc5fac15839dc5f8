import path from 'node:path';
import { BatonError } from '../../../errors/index.js';
import { loadPanelConfig, startPanelServer } from '../../../panel/index.js';
import { DEFAULT_SUMMARY_CACHE_DIR, DiskSummaryCache, MemorySummaryCache } from '../../../summarize/index.js';
import { EXIT_OK, openCliLedger, parsePort, printResult, type CliIO, type CommonOptions } from '../../context.js';
import { loadPanelProviders } from '../panel/load-panel-providers.js';

export interface ServeCommandOptions extends CommonOptions {
  port?: string;
  host?: string;
  providersConfig?: string;
}

/**
 * Serves the panel until SIGINT or SIGTERM (or until `stop` resolves, for tests), then closes
 * the server and the ledger. Port 0 picks a free port; the URL is printed either way.
 */
export async function runServeCommand(io: CliIO, options: ServeCommandOptions, stop?: Promise<void>): Promise<number> {
  if (!options.config) {
    throw new BatonError('INPUT_INVALID', 'baton serve needs the panel file: --config panel.json', { details: { field: '--config' } });
  }
  const port = parsePort(options.port ?? '8787', '--port');
  const config = await loadPanelConfig(options.config, { cwd: io.cwd, env: io.env });
  const providers = await loadPanelProviders(config, { cwd: io.cwd, env: io.env, file: options.providersConfig });
  // Here --config names the panel file; the Baton config (for its `ledger`) is --providers-config.
  const ledger = await openCliLedger(io, { ledger: options.ledger, config: options.providersConfig });
  const summaryCache = new MemorySummaryCache({ backing: new DiskSummaryCache(path.join(io.cwd, DEFAULT_SUMMARY_CACHE_DIR)) });
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

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
