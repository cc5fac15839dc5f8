import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** Cookie that keeps a browser signed in after it opened `/?token=…` once. */
export const TOKEN_COOKIE = 'baton_ui_token';

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** Where the request's token came from, if any matched. */
export type AccessResult = 'header' | 'cookie' | 'query' | 'open' | 'denied';

/**
 * Checks the request's token: `Authorization: Bearer T` (scripts), the cookie (browsers) or
 * `?token=T` (the link a person opens once; the server then sets the cookie). Constant-time compare.
 */
export function checkAccess(req: IncomingMessage, url: URL, token: string | undefined): AccessResult {
  if (!token) return 'open';
  const auth = /^Bearer\s+(.+)$/i.exec(headerValue(req, 'authorization') ?? '')?.[1]?.trim();
  if (auth && same(auth, token)) return 'header';
  const cookie = readCookie(headerValue(req, 'cookie') ?? '', TOKEN_COOKIE);
  if (cookie && same(cookie, token)) return 'cookie';
  const query = url.searchParams.get('token');
  if (query && same(query, token)) return 'query';
  return 'denied';
}

/**
 * DNS-rebinding guard for a server without a token: a page on another site could point its own
 * name at 127.0.0.1, so the Host header must name this server.
 */
export function isAllowedHostHeader(req: IncomingMessage, bindHost: string, port: number): boolean {
  const given = (headerValue(req, 'host') ?? '').toLowerCase();
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', bindHost.includes(':') ? `[${bindHost}]` : bindHost]);
  return [...names].some((name) => given === `${name}:${port}`);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
