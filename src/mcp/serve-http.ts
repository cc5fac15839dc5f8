import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BatonError, errorMessage } from '../errors/index.js';
// logger.js, not the index: the index also loads prom-client, which start-up does not need.
import { getLogger } from '../observability/index.js';
import { type BatonMcpServerOptions, createMcpServer } from './create-mcp-server.js';
import { RenderWorker } from '../refresh/light.js';
import { authorized, BodyTooLargeError, bodyTooLarge, busy, header, readJson, sendJson } from './http-io.js';
import { checkServeHttpOptions } from './mcp-options-schema.js';
import { TurnBudget } from './turn-budget.js';
import { WorkspaceRegistry } from './workspace-state.js';

/** @default '127.0.0.1': never listen beyond the machine unless asked. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
/** @default '/mcp' */
export const MCP_HTTP_PATH = '/mcp';
/** @default 256: open sessions at most; an initialize beyond it gets 503 with Retry-After. */
export const DEFAULT_MAX_SESSIONS = 256;
/** @default 256: requests handled at once at most (long-lived GET streams excluded); beyond it 503. */
export const DEFAULT_MAX_IN_FLIGHT = 256;
/** @default 600_000: a session with no request for this long is closed (its client must initialize again). */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60 * 1000;

export interface ServeHttpOptions extends BatonMcpServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** @default DEFAULT_HTTP_HOST */
  host?: string;
  /** Bearer token every request must carry; none means no auth (only sensible on 127.0.0.1). */
  token?: string;
  /** Extra Host header values accepted (DNS rebinding protection), e.g. 'baton.internal:8080'. */
  allowedHosts?: string[];
  /** Extra Origin header values accepted. */
  allowedOrigins?: string[];
  /** Serve a non-loopback host without a token (anyone who reaches the port can use the ledger). @default false */
  allowUnauthenticated?: boolean;
  /** @default DEFAULT_MAX_SESSIONS */
  maxSessions?: number;
  /** @default DEFAULT_MAX_IN_FLIGHT */
  maxInFlight?: number;
  /** @default DEFAULT_SESSION_IDLE_MS */
  sessionIdleMs?: number;
}

export interface HttpMcpServer {
  url: string;
  port: number;
  load(): HttpServerLoad;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  stop: () => void;
  lastSeen: number;
}

/** What the server holds right now (for tests, benchmarks and logs). */
export interface HttpServerLoad {
  sessions: number;
  inFlight: number;
  rejected: number;
  expired: number;
}

/**
 * Serves Baton over Streamable HTTP at `http://HOST:PORT/mcp`: one MCP server per client
 * session, a bearer token check before anything else (401 without it), and DNS rebinding
 * protection (Host and Origin must name this server). Load is bounded: at most `maxSessions`
 * sessions and `maxInFlight` requests at once (503 with Retry-After beyond either), and sessions
 * idle for `sessionIdleMs` are closed. Every session shares one ledger handle per workspace, one
 * git cache and one result cache (WorkspaceRegistry).
 */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpMcpServer> {
  checkServeHttpOptions(options);
  const host = options.host ?? DEFAULT_HTTP_HOST;
  checkExposure(host, options);
  const registry = options.registry ?? new WorkspaceRegistry();
  // Many clients share this event loop: cold renders go to a worker thread.
  registry.renderWorker ??= new RenderWorker();
  // ...and a burst of requests is handled in bounded slices, one turn's budget at a time.
  registry.turns ??= new TurnBudget();
  const state: HttpState = {
    options,
    host,
    port: options.port,
    registry,
    turns: registry.turns,
    sessions: new Map<string, Session>(),
    log: getLogger(),
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxInFlight: options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
    idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    counters: { inFlight: 0, rejected: 0, expired: 0 },
  };

  const http: Server = createServer((req, res) => {
    if (!admit(state, req, res)) return;
    handleRequest(state, req, res).catch((error) => {
      if (error instanceof BodyTooLargeError && !res.headersSent) return bodyTooLarge(req, res);
      state.log.error({ err: errorMessage(error) }, 'baton mcp http: request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal error', code: 'INTERNAL' });
      else res.end();
    });
  });
  const sweeper = startIdleSweeper(state);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  state.port = (http.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${state.port}${MCP_HTTP_PATH}`;
  state.log.info({ url, auth: Boolean(options.token) }, 'baton mcp: serving Streamable HTTP');
  // Loads, the first git read and a standard render start now, in the background (warm-up.ts).
  void registry.warm(options.workspace);
  return {
    url,
    port: state.port,
    load: () => ({ sessions: state.sessions.size, ...state.counters }),
    close: () => closeServer(state, http, sweeper),
  };
}

/** Everything one HTTP server shares across its requests. */
interface HttpState {
  options: ServeHttpOptions;
  host: string;
  /** The requested port until listening, then the bound one (named in the allowed Host values). */
  port: number;
  registry: WorkspaceRegistry;
  turns: TurnBudget;
  sessions: Map<string, Session>;
  log: ReturnType<typeof getLogger>;
  maxSessions: number;
  maxInFlight: number;
  idleMs: number;
  counters: { inFlight: number; rejected: number; expired: number };
}

/**
 * Counts the request in flight until its response ends, or answers 503 when the limit is reached
 * (false: the request was answered and must not be handled).
 */
function admit(state: HttpState, req: IncomingMessage, res: ServerResponse): boolean {
  const { counters } = state;
  // A GET opens the long-lived notification stream: it holds no work, so it is not counted.
  if (req.method === 'GET') return true;
  if (counters.inFlight >= state.maxInFlight) {
    counters.rejected += 1;
    req.resume();
    busy(res, 1, `Too many requests in flight (${state.maxInFlight}); retry after a second.`);
    return false;
  }
  counters.inFlight += 1;
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    counters.inFlight -= 1;
  };
  res.once('finish', release);
  res.once('close', release);
  return true;
}

async function handleRequest(state: HttpState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== MCP_HTTP_PATH)
    return sendJson(res, 404, { error: `Not found; the MCP endpoint is ${MCP_HTTP_PATH}`, code: 'NOT_FOUND' });
  if (state.options.token && !authorized(req, state.options.token)) {
    res.setHeader('WWW-Authenticate', 'Bearer realm="baton"');
    return sendJson(res, 401, {
      error: 'Missing or wrong bearer token (Authorization: Bearer <BATON_MCP_TOKEN>).',
      code: 'UNAUTHORIZED',
    });
  }
  const sessionId = header(req, 'mcp-session-id');
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  await state.turns.take();
  const existing = sessionId ? state.sessions.get(sessionId) : undefined;
  if (existing) {
    existing.lastSeen = Date.now();
    return existing.transport.handleRequest(req, res, body);
  }
  if (req.method !== 'POST' || sessionId || !isInitializeRequest(body)) {
    return sendJson(res, sessionId ? 404 : 400, {
      jsonrpc: '2.0',
      error: { code: -32000, message: sessionId ? 'Unknown or expired session' : 'No session: send an initialize request first' },
      id: null,
    });
  }
  if (state.sessions.size >= state.maxSessions) {
    state.counters.rejected += 1;
    return busy(res, 5, `Too many sessions (${state.sessions.size} of ${state.maxSessions}); retry later or close idle clients.`);
  }
  await openSession(state, req, res, body);
}

/** Answers an initialize request with a new session: its own transport and MCP server. */
async function openSession(state: HttpState, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const { options, host, port, sessions } = state;
  const local = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${host}:${port}`];
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableDnsRebindingProtection: true,
    allowedHosts: [...local, ...(options.allowedHosts ?? [])],
    allowedOrigins: [...local.map((h) => `http://${h}`), ...(options.allowedOrigins ?? [])],
    onsessioninitialized: (id) => {
      sessions.set(id, { transport, stop: () => watcher.stop(), lastSeen: Date.now() });
    },
  });
  const { server, watcher } = createMcpServer({
    ...options,
    registry: state.registry,
    sessionId: () => transport.sessionId ?? 'http',
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
    watcher.stop();
  };
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/** Closes sessions idle for longer than idleMs, checking a few times per idle period. */
function startIdleSweeper(state: HttpState): NodeJS.Timeout {
  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - state.idleMs;
      for (const [id, session] of state.sessions) {
        if (session.lastSeen >= cutoff) continue;
        state.sessions.delete(id);
        state.counters.expired += 1;
        session.stop();
        session.transport.close().catch(() => undefined);
      }
    },
    Math.max(10, Math.min(state.idleMs / 4, 30_000)),
  );
  sweeper.unref();
  return sweeper;
}

async function closeServer(state: HttpState, http: Server, sweeper: NodeJS.Timeout): Promise<void> {
  clearInterval(sweeper);
  for (const session of state.sessions.values()) {
    session.stop();
    await session.transport.close().catch(() => undefined);
  }
  state.sessions.clear();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  if (!state.options.registry) await state.registry.close();
}

/** True for an address only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * A listener beyond loopback answers anyone who reaches the port, and the DNS rebinding check does
 * not stop them (any client can send `Host: 127.0.0.1:PORT`): such a listener needs a token, unless
 * the caller opted out explicitly ('warn'). Pure.
 */
export function exposureCheck(host: string, options: { token?: string; allowUnauthenticated?: boolean }): 'ok' | 'warn' | 'refuse' {
  if (isLoopbackHost(host) || options.token) return 'ok';
  return options.allowUnauthenticated ? 'warn' : 'refuse';
}

function checkExposure(host: string, options: ServeHttpOptions): void {
  const verdict = exposureCheck(host, options);
  if (verdict === 'refuse') {
    throw new BatonError(
      'INPUT_INVALID',
      `Refusing to serve ${host} without a token: anyone who can reach this port could read and change the ledger. Set BATON_MCP_TOKEN (or --token), bind to 127.0.0.1, or pass --allow-unauthenticated if the network is trusted.`,
      { details: { field: '--host', value: host } },
    );
  }
  if (verdict === 'warn')
    getLogger().warn({ host }, 'baton mcp: serving a non-loopback address WITHOUT authentication (--allow-unauthenticated)');
}
