import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request and response plumbing for the Streamable HTTP server (serve-http.ts). */

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** True when the request carries `Authorization: Bearer <token>`; compared in constant time. */
export function authorized(req: IncomingMessage, token: string): boolean {
  const value = header(req, 'authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(value);
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
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
export function busy(res: ServerResponse, retryAfterSeconds: number, message: string): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  sendJson(res, 503, { jsonrpc: '2.0', error: { code: -32000, message, data: { retry_after_s: retryAfterSeconds } }, id: null });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
