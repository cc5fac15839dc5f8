import { request } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { type HttpMcpServer, serveHttp, WorkspaceRegistry } from '../../src/mcp/index.js';
import { makeRepo, type Loose } from '../refresh/helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: { maxSessions?: number; maxInFlight?: number; sessionIdleMs?: number } = {}) {
  const repo = makeRepo({ 'a.txt': 'a\n' });
  cleanups.push(repo.cleanup);
  // The workspace's real SQLite ledger, opened by the registry as `baton mcp` opens it.
  const registry = new WorkspaceRegistry((root) => openLedger({ spec: `sqlite:${path.join(root, '.baton', 'agent.db')}` }));
  cleanups.push(() => registry.close());
  const server = await serveHttp({ port: 0, registry, workspace: repo.dir, ...options });
  cleanups.push(() => server.close());
  return { repo, server, registry };
}

async function connect(server: HttpMcpServer): Promise<Client> {
  const client = new Client({ name: 'limits-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  cleanups.push(() => client.close().catch(() => undefined));
  return client;
}

/** Resolves once `done()` holds, checking on each turn of the event loop's timers (no fixed window). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST; with `hold`, the body is left unfinished so the request stays in flight. */
function rawPost(url: string, options: { hold?: boolean } = {}) {
  const target = new URL(url);
  let finish: () => void = () => undefined;
  const response = new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += String(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
      },
    );
    req.on('error', reject);
    if (options.hold) {
      req.write(INITIALIZE.slice(0, 10));
      finish = () => void req.end(INITIALIZE.slice(10));
    } else req.end(INITIALIZE);
  });
  return { response, finish: () => finish() };
}

describe('baton mcp --http limits and the shared caches', () => {
  it('answers 503 with Retry-After once the session cap is reached', async () => {
    const { server } = await start({ maxSessions: 2 });
    await connect(server);
    await connect(server);
    const refused = await rawPost(server.url).response;
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('5');
    expect(JSON.parse(refused.body).error.message).toMatch(/Too many sessions \(2 of 2\)/);
    await expect(connect(server)).rejects.toThrow(/503|Too many sessions/);
    expect(server.load()).toMatchObject({ sessions: 2, rejected: 2 });
  });

  it('answers 503 with Retry-After while the in-flight cap is taken, and serves again once it frees', async () => {
    const { server } = await start({ maxInFlight: 1 });
    const held = rawPost(server.url, { hold: true });
    // Waits for the server to count the held request (an event), not for a fixed window.
    await until(() => server.load().inFlight === 1);
    const refused = await rawPost(server.url).response;
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('1');
    expect(JSON.parse(refused.body).error.message).toMatch(/Too many requests in flight \(1\)/);
    held.finish();
    expect((await held.response).status).toBe(200);
    expect((await rawPost(server.url).response).status).toBe(200);
  });

  it('closes idle sessions: their next call fails, a new session works', async () => {
    // Long enough that a connect on a loaded machine never outlasts it; the test waits for the expiry itself.
    const { server } = await start({ sessionIdleMs: 3_000 });
    const client = await connect(server);
    await until(() => server.load().sessions === 0);
    expect(server.load()).toMatchObject({ sessions: 0, expired: 1 });
    await expect(client.listTools()).rejects.toThrow(/404|session/i);
    const fresh = await connect(server);
    expect((await fresh.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('answers a second session from the result cache the first one filled', async () => {
    const { server, registry } = await start();
    const first = await connect(server);
    const second = await connect(server);
    const a = await first.callTool({ name: 'refresh_context', arguments: { format: 'minimal' } });
    const b = await second.callTool({ name: 'refresh_context', arguments: { format: 'minimal' } });
    const cacheA = (a.structuredContent as Loose).metadata.cache;
    const cacheB = (b.structuredContent as Loose).metadata.cache;
    expect(['miss', 'shared', 'hit']).toContain(cacheA.result);
    expect(cacheB.result).toBe('hit');
    expect(registry.resultCache.hits).toBeGreaterThanOrEqual(1);
  });
});
