import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatonError, errorMessage } from '../../errors/index.js';
import { getLogger, renderMetrics } from '../../observability/index.js';
import { errorBody, handlePanelRequest, type PanelRequestContext, sendJson } from './handle-panel-request.js';
import { parseInput } from '../../util/index.js';
import { serverContextSchema, serverOptionsSchema } from '../panel-options-schema.js';

/** Loopback only unless asked: the panel spends the configured API keys. @default '127.0.0.1' */
export const DEFAULT_PANEL_SERVER_HOST = '127.0.0.1';
/** @default 8787 */
export const DEFAULT_PANEL_SERVER_PORT = 8787;

export interface PanelServerOptions extends PanelRequestContext {
  /** @default DEFAULT_PANEL_SERVER_HOST */
  host?: string;
  /** 0 picks a free port. @default DEFAULT_PANEL_SERVER_PORT */
  port?: number;
}

export interface RunningPanelServer {
  /** e.g. http://127.0.0.1:8787 */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Creates the HTTP server behind `baton serve`: `POST /panel` (see handlePanelRequest),
 * `GET /healthz` and `GET /metrics` (Prometheus text). Not listening yet.
 * @throws BatonError CONFIG_INVALID for an unknown option (naming the spelling expected) or a value of the wrong type.
 */
export function createPanelServer(context: PanelRequestContext): Server {
  parseInput(serverContextSchema, context, { what: 'createPanelServer options' });
  return buildPanelServer(context);
}

function buildPanelServer(context: PanelRequestContext): Server {
  return createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname === '/panel') {
      if (req.method !== 'POST') {
        sendJson(res, 405, errorBody('INPUT_INVALID', 'Use POST /panel with a JSON body {"question": "…"}'), { allow: 'POST' });
        return;
      }
      handlePanelRequest(req, res, context).catch((error: unknown) => {
        getLogger().error({ err: error }, 'panel request crashed');
        sendJson(res, 500, errorBody('INTERNAL', errorMessage(error)));
      });
      return;
    }
    if (req.method === 'GET' && pathname === '/healthz') {
      sendJson(res, 200, { ok: true, agents: context.config.agents.map((agent) => agent.name) });
      return;
    }
    if (req.method === 'GET' && pathname === '/metrics') {
      renderMetrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
          res.end(text);
        },
        (error: unknown) => sendJson(res, 500, errorBody('INTERNAL', errorMessage(error))),
      );
      return;
    }
    sendJson(res, 404, errorBody('NOT_FOUND', `No route ${req.method} ${pathname}; try POST /panel`));
  });
}

/**
 * Starts the panel server and resolves once it listens.
 * @throws BatonError('INPUT_INVALID') when the port is taken or the host cannot be bound; 'CONFIG_INVALID'
 *   for an unknown option (naming the spelling expected) or a value of the wrong type.
 * @example
 * const running = await startPanelServer({ config, runOptions: { ledger }, port: 0 });
 */
export async function startPanelServer(options: PanelServerOptions): Promise<RunningPanelServer> {
  parseInput(serverOptionsSchema, options, { what: 'startPanelServer options' });
  const server = buildPanelServer(options);
  const host = options.host ?? DEFAULT_PANEL_SERVER_HOST;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BatonError(
          'INPUT_INVALID',
          `Cannot listen on ${host}:${options.port ?? DEFAULT_PANEL_SERVER_PORT}: ${error.code ?? error.message}`,
          {
            cause: error,
            details: { field: 'port', value: options.port },
          },
        ),
      ),
    );
    server.listen(options.port ?? DEFAULT_PANEL_SERVER_PORT, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
