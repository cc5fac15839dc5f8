import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BatonError, errorMessage } from '../errors/index.js';
// logger.js, not the index: the index also loads prom-client, which start-up does not need.
import { getLogger } from '../observability/logger.js';
import { type BatonMcpServerOptions, createBatonMcpServer } from './create-mcp-server.js';
import { RenderWorker } from '../refresh/render-worker.js';
import { TurnBudget } from './turn-budget.js';
import { WorkspaceRegistry } from './workspace-state.js';

/** @default '127.0.0.1': never listen beyond the machine unless asked. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
/** @default '/mcp' */
export const MCP_HTTP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
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
  const host = options.host ?? DEFAULT_HTTP_HOST;
  checkExposure(host, options);
  const registry = options.registry ?? new WorkspaceRegistry();
  // Many clients share this event loop: cold renders go to a worker thread.
  registry.renderWorker ??= new RenderWorker();
  // ...and a burst of requests is handled in bounded slices, one turn's budget at a time.
  registry.turns ??= new TurnBudget();
  const turns = registry.turns;
  const sessions = new Map<string, Session>();
  let port = options.port;
  const log = getLogger();
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const counters = { inFlight: 0, rejected: 0, expired: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_HTTP_PATH)
      return sendJson(res, 404, { error: `Not found; the MCP endpoint is ${MCP_HTTP_PATH}`, code: 'NOT_FOUND' });
    if (options.token && !authorized(req, options.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="baton"');
      return sendJson(res, 401, {
        error: 'Missing or wrong bearer token (Authorization: Bearer <BATON_MCP_TOKEN>).',
        code: 'UNAUTHORIZED',
      });
    }
    const sessionId = header(req, 'mcp-session-id');
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    await turns.take();
    const existing = sessionId ? sessions.get(sessionId) : undefined;
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
    if (sessions.size >= maxSessions) {
      counters.rejected += 1;
      return busy(res, 5, `Too many sessions (${sessions.size} of ${maxSessions}); retry later or close idle clients.`);
    }
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
    const { server, watcher } = createBatonMcpServer({ ...options, registry, sessionId: () => transport.sessionId ?? 'http' });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      watcher.stop();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http: Server = createServer((req, res) => {
    // A GET opens the long-lived notification stream: it holds no work, so it is not counted.
    const counted = req.method !== 'GET';
    if (counted && counters.inFlight >= maxInFlight) {
      counters.rejected += 1;
      req.resume();
      return busy(res, 1, `Too many requests in flight (${maxInFlight}); retry after a second.`);
    }
    if (counted) {
      counters.inFlight += 1;
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        counters.inFlight -= 1;
      };
      res.once('finish', release);
      res.once('close', release);
    }
    handle(req, res).catch((error) => {
      log.error({ err: errorMessage(error) }, 'baton mcp http: request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal error', code: 'INTERNAL' });
      else res.end();
    });
  });
  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const [id, session] of sessions) {
        if (session.lastSeen >= cutoff) continue;
        sessions.delete(id);
        counters.expired += 1;
        session.stop();
        session.transport.close().catch(() => undefined);
      }
    },
    Math.max(10, Math.min(idleMs / 4, 30_000)),
  );
  sweeper.unref();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${MCP_HTTP_PATH}`;
  log.info({ url, auth: Boolean(options.token) }, 'baton mcp: serving Streamable HTTP');
  // Loads, the first git read and a standard render start now, in the background (warm-up.ts).
  void registry.warm(options.workspace);
  return {
    url,
    port,
    load: () => ({ sessions: sessions.size, ...counters }),
    close: async () => {
      clearInterval(sweeper);
      for (const session of sessions.values()) {
        session.stop();
        await session.transport.close().catch(() => undefined);
      }
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      if (!options.registry) await registry.close();
    },
  };
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

function authorized(req: IncomingMessage, token: string): boolean {
  const value = header(req, 'authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(value);
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** 503 with Retry-After (seconds) and a JSON-RPC error naming the limit, so clients back off. */
function busy(res: ServerResponse, retryAfterSeconds: number, message: string): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  sendJson(res, 503, { jsonrpc: '2.0', error: { code: -32000, message, data: { retry_after_s: retryAfterSeconds } }, id: null });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
