import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage, isBatonError } from '../errors/index.js';
import type { getLogger } from '../observability/index.js';
import type { GitCache } from '../refresh/index.js';
import { CLIENT_SCRIPT } from './assets/client-script.js';
import { STYLES } from './assets/styles.js';
import { checkAccess, isAllowedHostHeader, TOKEN_COOKIE } from './check-access.js';
import { html } from './html.js';
import { notFound, renderPage } from './layout.js';
import type { UiServerOptions, ViewContext, ViewResult } from './types.js';
import { renderPanelsView, renderPanelView } from './views/panels-view.js';
import { renderProvidersView } from './views/providers-view.js';
import { renderQueueView } from './views/queue-view.js';
import { renderRecoveryView } from './views/recovery-view.js';
import { renderHandoffsView, renderHandoffView } from './views/handoffs-view.js';
import { renderSessionsView, renderSessionView } from './views/sessions-view.js';
import { renderTasksView } from './views/tasks-view.js';
import { renderTaskView } from './views/task-view.js';
import type { LedgerWatcher } from './watch-ledger.js';
import { maskSecretsSync } from '../redact/index.js';

const HEARTBEAT_MS = 15_000;

// Scripts and styles come only from this server; nothing inline, no frames, no referrer leaks.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const PAGE_VIEWS: Record<string, (ctx: ViewContext) => Promise<ViewResult>> = {
  '/': renderTasksView,
  '/providers': renderProvidersView,
  '/recovery': renderRecoveryView,
  '/sessions': renderSessionsView,
  '/handoffs': renderHandoffsView,
  '/panels': renderPanelsView,
  '/queue': renderQueueView,
};

/** The views of one item, by the path's first segment (`/tasks/ID`). */
const ITEM_VIEWS: Record<string, (ctx: ViewContext, id: string) => Promise<ViewResult>> = {
  tasks: renderTaskView,
  sessions: renderSessionView,
  handoffs: renderHandoffView,
  panels: renderPanelView,
};

/** Everything the UI server shares across its requests (built by startUiServer). */
export interface UiState {
  options: UiServerOptions;
  host: string;
  token: string | undefined;
  /** The requested port until listening, then the bound one (checked against the Host header). */
  port: number;
  log: ReturnType<typeof getLogger>;
  workspace: string;
  gitCache: GitCache;
  now: () => number;
  watcher: LedgerWatcher;
  /** Open server-sent event streams, ended on close. */
  streams: Set<ServerResponse>;
}

/** Answers one request: read-only methods, assets, the access check, then the event stream or a view. */
export async function handleUiRequest(state: UiState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'text/plain', 'baton ui is read-only: only GET and HEAD are answered.\n');
  }
  // The stylesheet and script hold no ledger data, so even the 401 page can use them.
  if (url.pathname === '/assets/app.css') return send(res, 200, 'text/css', STYLES, { cache: true });
  if (url.pathname === '/assets/app.js') return send(res, 200, 'text/javascript', CLIENT_SCRIPT, { cache: true });
  if (answeredByAccessCheck(state, req, res, url)) return;
  if (url.pathname === '/favicon.ico') return send(res, 204, 'text/plain', '');
  if (url.pathname === '/events') return openEventStream(state, req, res);
  const queue = state.options.queue;
  if (queue?.handle && url.pathname.startsWith('/queue/dashboard')) return queue.handle(req, res);

  const view =
    (await buildView(state, url)) ?? notFound('tasks', 'Not found', html`No view at <code>${url.pathname}</code>. <a href="/">Tasks</a>.`);
  const fragment = req.headers['x-baton-fragment'] === '1';
  res.setHeader('cache-control', 'no-store');
  send(res, view.status ?? 200, 'text/html', fragment ? view.body.value : renderPage(view, state.options.ledger.location), {
    headOnly: req.method === 'HEAD',
  });
}

/** Sends 401, 421 or the sign-in redirect when access needs it; true when the request was answered. */
function answeredByAccessCheck(state: UiState, req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  const access = checkAccess(req, url, state.token);
  if (access === 'denied') {
    res.setHeader('www-authenticate', 'Bearer realm="baton ui"');
    send(res, 401, 'text/html', unauthorizedPage());
    return true;
  }
  if (access === 'open' && !isAllowedHostHeader(req, state.host, state.port)) {
    send(res, 421, 'text/plain', 'Unexpected Host header: open this page through the address baton ui printed.\n');
    return true;
  }
  if (access === 'query') {
    // The token came in the link: keep it in a cookie and drop it from the address bar.
    url.searchParams.delete('token');
    res.setHeader('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(state.token ?? '')}; HttpOnly; SameSite=Strict; Path=/`);
    res.setHeader('location', url.pathname + url.search);
    send(res, 303, 'text/plain', 'Signed in.\n');
    return true;
  }
  return false;
}

/** The view for the path (undefined when none matches), or an error page when building it failed. */
async function buildView(state: UiState, url: URL): Promise<ViewResult | undefined> {
  const { options } = state;
  const ctx: ViewContext = {
    ledger: options.ledger,
    url,
    now: state.now(),
    workspace: state.workspace,
    gitCache: state.gitCache,
    queue: options.queue,
  };
  try {
    const page = PAGE_VIEWS[url.pathname];
    if (page) return await page(ctx);
    const item = /^\/(tasks|sessions|handoffs|panels)\/([^/]+)$/.exec(url.pathname);
    if (item?.[1] && item[2]) return await ITEM_VIEWS[item[1]]?.(ctx, decodeURIComponent(item[2]));
    return undefined;
  } catch (error) {
    state.log.error({ err: errorMessage(error), path: url.pathname }, 'baton ui: view failed');
    const status = isBatonError(error, 'LEDGER_UNAVAILABLE') ? 503 : isBatonError(error) && error.isUserError ? 400 : 500;
    return {
      title: 'Error',
      nav: 'tasks',
      status,
      body: html`<h1>This view could not be built</h1>
        <p class="notice">${maskSecretsSync(errorMessage(error)).text}</p>
        <p><a href="/">Tasks</a></p>`,
    };
  }
}

/** Server-sent events: a `change` event whenever the ledger (or queue) version moves, and a heartbeat. */
function openEventStream(state: UiState, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 2000\nevent: hello\ndata: {}\n\n');
  state.streams.add(res);
  const unsubscribe = state.watcher.subscribe((v) => {
    if (!res.writableEnded) res.write(`event: change\ndata: ${JSON.stringify({ version: v })}\n\n`);
  });
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  req.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    state.streams.delete(res);
  });
}

export interface SendOptions {
  /** Let browsers cache the body for five minutes (static assets). @default false */
  cache?: boolean;
  /** Send the headers only (a HEAD request). @default false */
  headOnly?: boolean;
}

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  { cache = false, headOnly = false }: SendOptions = {},
): void {
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
