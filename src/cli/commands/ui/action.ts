import path from 'node:path';
import { openLedger } from '../../../ledger/index.js';
import { startUiServer } from '../../../ui/index.js';
import { EXIT_OK, parsePort, resolveLedgerSpec, untilSignal, type CliIO, type CommonOptions } from '../../context.js';
import { openQueuePanel } from './queue-panel.js';

export interface UiCliOptions extends CommonOptions {
  port?: string;
  host?: string;
  token?: string;
  workspace?: string;
}

/**
 * Opens the ledger (an SQLite file must already exist: the view never creates one), serves the
 * page until SIGINT/SIGTERM, and prints its address (one JSON line with --json).
 */
export async function runUi(io: CliIO, options: UiCliOptions, stop: Promise<unknown> = untilSignal()): Promise<number> {
  const port = parsePort(options.port ?? '8766', '--port');
  const token = options.token ?? io.env.BATON_UI_TOKEN;
  const spec = await resolveLedgerSpec(io, options);
  const namespace = io.env.BATON_NAMESPACE ?? process.env.BATON_NAMESPACE;
  const ledger = await openLedger({ spec, cwd: io.cwd, create: false, namespace });
  let queue: Awaited<ReturnType<typeof openQueuePanel>>;
  try {
    // On a Redis ledger the Queue view shows the BullMQ queue `baton worker` serves.
    queue = await openQueuePanel(spec, namespace ?? 'default');
    const server = await startUiServer({
      ledger,
      port,
      host: options.host,
      token,
      workspace: options.workspace ? path.resolve(io.cwd, options.workspace) : io.cwd,
      queue: queue?.panel,
    });
    if (options.json)
      io.stdout(
        `${JSON.stringify({ url: server.url, ledger: ledger.location, backend: ledger.backend, token_required: Boolean(token) })}\n`,
      );
    else {
      io.stdout(`baton ui: ${server.url} (ledger ${ledger.backend} ${ledger.location}; read-only; Ctrl-C stops)\n`);
      if (token) io.stdout(`Token required: open ${server.url}?token=<your token> once; a cookie keeps the browser signed in.\n`);
    }
    await stop;
    await server.close();
    return EXIT_OK;
  } finally {
    await queue?.close();
    await ledger.close();
  }
}
