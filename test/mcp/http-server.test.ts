import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { exposureCheck, type HttpMcpServer, serveHttp, WorkspaceRegistry } from '../../src/mcp/index.js';
import { makeRepo, type Loose } from '../refresh/helpers.js';

const TOKEN = `tok-${'x'.repeat(8)}-${Date.now()}`;
let repo: ReturnType<typeof makeRepo>;
let ledger: MemoryLedger;
const servers: HttpMcpServer[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  repo = makeRepo({ 'a.txt': 'a\n' });
  ledger = new MemoryLedger();
  await ledger.createTask({ id: 'web', title: 'Ship the web UI', status: 'in_progress' });
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const server of servers.splice(0)) await server.close();
});

afterAll(() => repo.cleanup());

async function start(options: { token?: string; watchIntervalMs?: number } = {}): Promise<HttpMcpServer> {
  // One shared in-memory ledger stands in for the workspace's SQLite file.
  const registry = new WorkspaceRegistry(async () => ledger);
  const server = await serveHttp({ port: 0, registry, ...options });
  servers.push(server);
  return server;
}

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
  });
}

describe('baton mcp --http (Streamable HTTP)', () => {
  it('reads every URI resources/list returns, bare and with ?format=', async () => {
    const server = await start();
    const client = await connect(server.url);
    await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(['baton://context/current', 'baton://context/web']);
    for (const uri of uris) {
      const bare = (await client.readResource({ uri })).contents[0] as { text: string };
      expect(JSON.parse(bare.text).metadata.format).toBe('standard');
      expect(JSON.parse(bare.text).current_task.id).toBe('web');
      const narrative = (await client.readResource({ uri: `${uri}?format=narrative` })).contents[0] as { text: string; mimeType: string };
      expect(narrative.mimeType).toBe('text/markdown');
      expect(narrative.text).toMatch(/^# Session Context Summary/);
    }
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['baton://context/{task_id}']);
    await expect(client.readResource({ uri: 'baton://context/web?format=huge' })).rejects.toThrow(
      /format must be one of minimal, standard, detailed, narrative; got "huge"/,
    );
  });

  it('refuses a non-loopback host without a token, before listening, and names the way out', async () => {
    const registry = new WorkspaceRegistry(async () => ledger);
    // Rejected before listen(): nothing is ever bound beyond loopback here.
    await expect(serveHttp({ port: 0, host: '0.0.0.0', registry })).rejects.toThrow(
      /Refusing to serve 0\.0\.0\.0 without a token.*BATON_MCP_TOKEN.*--allow-unauthenticated/,
    );
    expect(exposureCheck('0.0.0.0', {})).toBe('refuse');
    expect(exposureCheck('192.168.1.5', { allowUnauthenticated: true })).toBe('warn');
    expect(exposureCheck('0.0.0.0', { token: TOKEN })).toBe('ok');
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(exposureCheck(host, {})).toBe('ok');
  });

  it('keeps the Host check on loopback even with a token (DNS rebinding)', async () => {
    const server = await start({ token: TOKEN });
    expect(await rawPost(server.url, { authorization: `Bearer ${TOKEN}`, host: 'evil.example:80' })).toBe(403);
    expect(await rawPost(server.url, { authorization: `Bearer ${TOKEN}`, host: `localhost:${server.port}` })).toBe(200);
  });

  it('binds to 127.0.0.1 and serves tools without a token when none is configured', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(server.url);
    const hs = await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });
    expect(hs.isError).toBeFalsy();
    const result = await client.callTool({ name: 'refresh_context', arguments: { format: 'minimal' } });
    expect((result.structuredContent as Loose).current_task.id).toBe('web');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['baton://context/current', 'baton://context/web']);
  });

  it('answers 401 without the bearer token and serves with it', async () => {
    const server = await start({ token: TOKEN });
    await expect(connect(server.url)).rejects.toThrow(/401|Unauthorized/i);
    await expect(connect(server.url, 'wrong-token')).rejects.toThrow(/401|Unauthorized/i);
    expect(await rawPost(server.url, {})).toBe(401);
    const client = await connect(server.url, TOKEN);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('refresh_context');
  });

  it('rejects a foreign Host or Origin header (DNS rebinding protection)', async () => {
    const server = await start();
    const port = new URL(server.url).port;
    expect(await rawPost(server.url, { host: `evil.example:${port}` })).toBe(403);
    expect(await rawPost(server.url, { origin: 'http://evil.example' })).toBe(403);
    expect(await rawPost(server.url, { host: `localhost:${port}` })).toBe(200);
  });

  it('notifies a subscribed context resource after a commit', async () => {
    const server = await start({ watchIntervalMs: 50 });
    const client = await connect(server.url);
    await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });
    const read = await client.readResource({ uri: 'baton://context/web?format=minimal' });
    const content = read.contents[0] as { text: string; mimeType?: string };
    expect(JSON.parse(content.text).current_task.id).toBe('web');

    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => resolve(note.params.uri));
    });
    await client.subscribeResource({ uri: 'baton://context/current' });
    // Give the watcher one poll to record the starting state, then move HEAD.
    await new Promise((resolve) => setTimeout(resolve, 150));
    writeFileSync(path.join(repo.dir, 'b.txt'), 'b\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'move HEAD');
    await expect(
      Promise.race([updated, new Promise((_, reject) => setTimeout(() => reject(new Error('no notification in 5 s')), 5000))]),
    ).resolves.toBe('baton://context/current');
  });

  it('notifies a subscribed context when the ledger changes', async () => {
    const server = await start({ watchIntervalMs: 50 });
    const client = await connect(server.url);
    await client.callTool({ name: 'workspace_handshake', arguments: { project_root: repo.dir } });
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => resolve(note.params.uri));
    });
    await client.subscribeResource({ uri: 'baton://context/web' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await client.callTool({ name: 'dispatch', arguments: { action: 'create', task_id: 'web', provider: 'codex' } });
    await expect(
      Promise.race([updated, new Promise((_, reject) => setTimeout(() => reject(new Error('no notification in 5 s')), 5000))]),
    ).resolves.toBe('baton://context/web');
  });
});
