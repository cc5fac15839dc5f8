import type { ServerResponse } from 'node:http';

/** Starts a server-sent events response. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies such as nginx buffer responses unless told not to, which would hold every token back.
    'x-accel-buffering': 'no',
  });
}

/** Writes one event; JSON data never contains a raw newline, so one `data:` line is enough. */
export function writeSse(res: ServerResponse, event: string, data: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
