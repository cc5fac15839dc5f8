import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatonError, errorMessage } from '../errors/index.js';
import { getLogger } from '../observability/index.js';
import { GitCache } from '../refresh/index.js';
import { isLoopbackHost } from './check-access.js';
import type { UiServer, UiServerOptions } from './types.js';
import { handleUiRequest, send, type UiState } from './ui-request.js';
import { createVersionReader, DEFAULT_POLL_MS, LedgerWatcher } from './watch-ledger.js';

type VersionReader = Awaited<ReturnType<typeof createVersionReader>>;

/** @default 8766 (baton mcp --http uses 8765) */
export const DEFAULT_UI_PORT = 8766;
/** @default '127.0.0.1': never reachable from other machines unless asked. */
export const DEFAULT_UI_HOST = '127.0.0.1';
/**
 * Serves the read-only web view of a ledger: tasks, a task's timeline with the context injected
 * at each seam, providers, session recovery, panels and the job queue, updated live over
 * server-sent events. Only GET and HEAD are answered; nothing here writes to the ledger.
 *
 * @throws BatonError('INPUT_INVALID') when `host` is not a loopback address and no token is set.
 * @example
 * const ui = await startUiServer({ ledger, port: 0 });
 * console.log(ui.url); // http://127.0.0.1:PORT/
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const host = options.host ?? DEFAULT_UI_HOST;
  const token = options.token || undefined;
  if (!isLoopbackHost(host) && !token) {
    throw new BatonError(
      'INPUT_INVALID',
      `--host ${host} is reachable from other machines: set a token (--token or BATON_UI_TOKEN) or use 127.0.0.1`,
      { details: { field: 'host', value: host } },
    );
  }
  const log = getLogger();
  const version = await createVersionReader(options.ledger);
  const state: UiState = {
    options,
    host,
    token,
    port: options.port ?? DEFAULT_UI_PORT,
    log,
    workspace: options.workspace ?? process.cwd(),
    gitCache: new GitCache(),
    now: options.now ?? Date.now,
    watcher: watchVersions(options, version, log),
    streams: new Set<ServerResponse>(),
  };

  const server: Server = createServer((req, res) => {
    handleUiRequest(state, req, res).catch((error) => {
      log.error({ err: errorMessage(error) }, 'baton ui: request failed');
      if (!res.headersSent) send(res, 500, 'text/plain', 'Internal error\n');
      else res.end();
    });
  });
  await listen(server, host, state.port);
  state.port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${state.port}/`;
  log.info({ url, auth: Boolean(token) }, 'baton ui: serving');
  return {
    url,
    port: state.port,
    close: async () => {
      for (const res of state.streams) res.end();
      state.streams.clear();
      state.watcher.stop();
      version.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function watchVersions(options: UiServerOptions, version: VersionReader, log: UiState['log']): LedgerWatcher {
  const queueVersion = options.queue?.version;
  // A queue changes without the ledger (a worker connects, a job is enqueued): watch both.
  const readVersion = queueVersion ? async () => `${await version.read()}|${await queueVersion()}` : version.read;
  return new LedgerWatcher(readVersion, options.pollMs ?? DEFAULT_POLL_MS, (error) =>
    log.warn({ err: errorMessage(error) }, 'baton ui: could not read the ledger version'),
  );
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new BatonError('INPUT_INVALID', `Port ${port} on ${host} is in use: pick another with --port (0 picks a free one)`, {
              details: { field: 'port', value: port },
            })
          : error,
      ),
    );
    server.listen(port, host, () => resolve());
  });
}
