import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request and response plumbing for the Streamable HTTP server (serve-http.ts). */

/** @default 4 MiB: the largest request body `baton mcp --http` reads; a larger one is answered 413. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request body over MAX_BODY_BYTES (announced by Content-Length, or found while reading). */
export class BodyTooLargeError extends Error {
  constructor() {
    super(`request body over ${MAX_BODY_BYTES} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

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

/**
 * The body as JSON (undefined when empty or not JSON). @throws BodyTooLargeError past MAX_BODY_BYTES.
 * Past the limit the rest of the body is read and dropped, never the connection cut: a client still
 * sending would get EPIPE/ECONNRESET instead of the 413 that names the limit.
 */
export function readJson(req: IncomingMessage): Promise<unknown> {
  if (Number(header(req, 'content-length')) > MAX_BODY_BYTES) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return;
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      chunks.length = 0;
      reject(new BodyTooLargeError());
    });
    req.on('end', () => resolve(parseJson(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
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

/**
 * 413 naming the limit, as a JSON-RPC error. The rest of the body is read and dropped (a client
 * still sending would otherwise get a reset instead of the answer) and the connection closes after.
 */
export function bodyTooLarge(req: IncomingMessage, res: ServerResponse): void {
  const mib = MAX_BODY_BYTES / (1024 * 1024);
  const message = `Request body too large: baton mcp --http reads at most ${mib} MiB (${MAX_BODY_BYTES} bytes) per request.`;
  // Node reads and drops the rest of the body once the answer is out; the connection stays usable.
  req.resume();
  sendJson(res, 413, { jsonrpc: '2.0', error: { code: -32600, message, data: { max_body_bytes: MAX_BODY_BYTES } }, id: null });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
