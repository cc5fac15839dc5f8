import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
// logger.js, not the index: the index also loads prom-client, which start-up does not need.
import { getLogger } from '../observability/logger.js';
import { type BatonMcpServerOptions, createBatonMcpServer } from './create-mcp-server.js';
import { WorkspaceRegistry } from './workspace-state.js';

/**
 * Serves Baton over stdio until the client closes stdin. stdout belongs to the protocol: every
 * log line goes to stderr (pino's destination in observability/).
 */
export async function serveStdio(options: BatonMcpServerOptions = {}): Promise<void> {
  const registry = options.registry ?? new WorkspaceRegistry();
  const { server, watcher } = createBatonMcpServer({ ...options, registry });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  getLogger().info({ workspace: options.workspace ?? null }, 'baton mcp: serving on stdio');
  await closed;
  watcher.stop();
  await server.close().catch(() => undefined);
  await registry.close();
}
