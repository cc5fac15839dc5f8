import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry, renderMetrics } from '../../../observability/index.js';

/** Serves Prometheus text on GET /metrics while a run lasts (port 0 picks a free port). */
export async function startMetricsServer(
  port: number,
  beforeScrape?: () => Promise<unknown>,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      // Gauges read from elsewhere (the queue) are refreshed on each scrape.
      (beforeScrape ? beforeScrape().catch(() => undefined) : Promise.resolve()).then(renderMetrics).then(
        (body) => {
          res.writeHead(200, { 'content-type': metricsRegistry().contentType });
          res.end(body);
        },
        (error: unknown) => {
          res.writeHead(500);
          res.end(String(error));
        },
      );
      return;
    }
    res.writeHead(404);
    res.end('not found: try /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
