import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatonError, errorMessage, isBatonError } from '../errors/index.js';
import { getLogger } from '../observability/index.js';
import { GitCache } from '../refresh/index.js';
import { CLIENT_SCRIPT } from './assets/client-script.js';
import { STYLES } from './assets/styles.js';
import { checkAccess, isAllowedHostHeader, isLoopbackHost, TOKEN_COOKIE } from './check-access.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import type { UiServer, UiServerOptions, ViewContext, ViewResult } from './types.js';
import { renderPanelsView, renderPanelView } from './views/panels-view.js';
import { renderProvidersView } from './views/providers-view.js';
import { renderQueueView } from './views/queue-view.js';
import { renderRecoveryView } from './views/recovery-view.js';
import { renderTasksView } from './views/tasks-view.js';
import { renderTaskView } from './views/task-view.js';
import { createVersionReader, DEFAULT_POLL_MS, LedgerWatcher } from './watch-ledger.js';

/** @default 8766 (baton mcp --http uses 8765) */
export const DEFAULT_UI_PORT = 8766;
/** @default '127.0.0.1': never reachable from other machines unless asked. */
export const DEFAULT_UI_HOST = '127.0.0.1';
const HEARTBEAT_MS = 15_000;

// Scripts and styles come only from this server; nothing inline, no frames, no referrer leaks.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

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
      {
        details: { field: 'host', value: host },
      },
    );
  }
  const log = getLogger();
  const workspace = options.workspace ?? process.cwd();
  const gitCache = new GitCache();
  const now = options.now ?? Date.now;
  const version = await createVersionReader(options.ledger);
  const queueVersion = options.queue?.version;
  // A queue changes without the ledger (a worker connects, a job is enqueued): watch both.
  const readVersion = queueVersion ? async () => `${await version.read()}|${await queueVersion()}` : version.read;
  const watcher = new LedgerWatcher(readVersion, options.pollMs ?? DEFAULT_POLL_MS, (error) =>
    log.warn({ err: errorMessage(error) }, 'baton ui: could not read the ledger version'),
  );
  const streams = new Set<ServerResponse>();
  let port = options.port ?? DEFAULT_UI_PORT;

  const route = async (url: URL): Promise<ViewResult | undefined> => {
    const ctx: ViewContext = { ledger: options.ledger, url, now: now(), workspace, gitCache, queue: options.queue };
    const path = url.pathname;
    if (path === '/') return renderTasksView(ctx);
    if (path === '/providers') return renderProvidersView(ctx);
    if (path === '/recovery') return renderRecoveryView(ctx);
    if (path === '/panels') return renderPanelsView(ctx);
    if (path === '/queue') return renderQueueView(ctx);
    const task = /^\/tasks\/([^/]+)$/.exec(path);
    if (task?.[1]) return renderTaskView(ctx, decodeURIComponent(task[1]));
    const panel = /^\/panels\/([^/]+)$/.exec(path);
    if (panel?.[1]) return renderPanelView(ctx, decodeURIComponent(panel[1]));
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'text/plain', 'baton ui is read-only: only GET and HEAD are answered.\n');
    }
    // The stylesheet and script hold no ledger data, so even the 401 page can use them.
    if (url.pathname === '/assets/app.css') return send(res, 200, 'text/css', STYLES, true);
    if (url.pathname === '/assets/app.js') return send(res, 200, 'text/javascript', CLIENT_SCRIPT, true);
    const access = checkAccess(req, url, token);
    if (access === 'denied') {
      res.setHeader('www-authenticate', 'Bearer realm="baton ui"');
      return send(res, 401, 'text/html', unauthorizedPage());
    }
    if (access === 'open' && !isAllowedHostHeader(req, host, port)) {
      return send(res, 421, 'text/plain', 'Unexpected Host header: open this page through the address baton ui printed.\n');
    }
    if (access === 'query') {
      // The token came in the link: keep it in a cookie and drop it from the address bar.
      url.searchParams.delete('token');
      res.setHeader('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(token ?? '')}; HttpOnly; SameSite=Strict; Path=/`);
      res.setHeader('location', url.pathname + url.search);
      return send(res, 303, 'text/plain', 'Signed in.\n');
    }
    if (url.pathname === '/favicon.ico') return send(res, 204, 'text/plain', '');
    if (url.pathname === '/events') return openStream(req, res);
    if (options.queue?.handle && url.pathname.startsWith('/queue/dashboard')) return options.queue.handle(req, res);

    let view: ViewResult | undefined;
    try {
      view = await route(url);
    } catch (error) {
      log.error({ err: errorMessage(error), path: url.pathname }, 'baton ui: view failed');
      const status = isBatonError(error, 'LEDGER_UNAVAILABLE') ? 503 : isBatonError(error) && error.isUserError ? 400 : 500;
      view = {
        title: 'Error',
        nav: 'tasks',
        status,
        body: html`<h1>This view could not be built</h1>
          <p class="notice">${errorMessage(error)}</p>
          <p><a href="/">Tasks</a></p>`,
      };
    }
    view ??= {
      title: 'Not found',
      nav: 'tasks',
      status: 404,
      body: html`<h1>Not found</h1>
        <p>No view at <code>${url.pathname}</code>. <a href="/">Tasks</a>.</p>`,
    };
    const fragment = req.headers['x-baton-fragment'] === '1';
    res.setHeader('cache-control', 'no-store');
    send(
      res,
      view.status ?? 200,
      'text/html',
      fragment ? view.body.value : renderPage(view, options.ledger.location),
      false,
      req.method === 'HEAD',
    );
  };

  const openStream = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\nevent: hello\ndata: {}\n\n');
    streams.add(res);
    const unsubscribe = watcher.subscribe((v) => {
      if (!res.writableEnded) res.write(`event: change\ndata: ${JSON.stringify({ version: v })}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    req.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log.error({ err: errorMessage(error) }, 'baton ui: request failed');
      if (!res.headersSent) send(res, 500, 'text/plain', 'Internal error\n');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
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
  port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  log.info({ url, auth: Boolean(token) }, 'baton ui: serving');
  return {
    url,
    port,
    close: async () => {
      for (const res of streams) res.end();
      streams.clear();
      watcher.stop();
      version.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string, cache = false, headOnly = false): void {
  res.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(body),
    ...(cache ? { 'cache-control': 'public, max-age=300' } : {}),
  });
  res.end(headOnly ? undefined : body);
}

function unauthorizedPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Token required · Baton</title><link rel="stylesheet" href="/assets/app.css"></head>
<body><main id="main"><h1>Token required</h1><p>This Baton view listens beyond this machine, so it asks for the token it was started with.</p>
<p>Open the address with <code>?token=YOUR_TOKEN</code> once (a cookie keeps you signed in), or send <code>Authorization: Bearer YOUR_TOKEN</code>.</p></main></body></html>`;
}
