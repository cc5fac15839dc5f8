/**
 * Issue 34 item 13: a 50 MB body to `baton mcp --http` answered 500 (an internal error); it is 413
 * naming the limit, whether the size is announced (Content-Length) or found while reading (chunked).
 */
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { type HttpMcpServer, serveHttp, WorkspaceRegistry } from '../../src/mcp/index.js';
import { makeRepo } from '../refresh/helpers.js';

const FIFTY_MB = 50 * 1024 * 1024;
const LIMIT = 4 * 1024 * 1024;
const cleanups: Array<() => unknown> = [];
let server: HttpMcpServer;

beforeAll(async () => {
  const repo = makeRepo({ 'a.txt': 'a\n' });
  cleanups.push(repo.cleanup);
  const registry = new WorkspaceRegistry((root) => openLedger({ spec: `sqlite:${path.join(root, '.baton', 'agent.db')}` }));
  cleanups.push(() => registry.close());
  server = await serveHttp({ port: 0, registry, workspace: repo.dir });
  cleanups.push(() => server.close());
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** POSTs `size` bytes of a JSON string in 1 MiB chunks; `announce` sends Content-Length, else chunked. */
function post(size: number, announce: boolean): Promise<{ status: number; body: string }> {
  const target = new URL(server.url);
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(announce ? { 'content-length': String(size) } : {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (data: Buffer) => (body += data.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    // The server may close the connection before the whole body is sent: only the answer matters.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    let sent = 0;
    const write = () => {
      while (sent < size && !req.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('a request body over the limit', () => {
  it.each([
    ['announced by Content-Length', true],
    ['sent chunked', false],
  ])('is answered 413 naming the limit when %s', async (_how, announce) => {
    const { status, body } = await post(FIFTY_MB, announce);
    expect(status).toBe(413);
    const answer = JSON.parse(body) as { error: { message: string; data: { max_body_bytes: number } } };
    expect(answer.error.message).toContain(`at most 4 MiB (${LIMIT} bytes)`);
    expect(answer.error.data.max_body_bytes).toBe(LIMIT);
  });

  it('leaves a body just under the limit to the MCP layer (not 413)', async () => {
    const { status } = await post(LIMIT - 16, true);
    expect(status).not.toBe(413);
    expect(status).toBeLessThan(500);
  });
});
