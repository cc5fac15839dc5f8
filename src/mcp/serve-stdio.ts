import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
// Not the logger itself: pino loads only when a record is written (log-later.ts).
import { logLater } from '../observability/index.js';
import { FORMAT_TOKEN_CAPS } from '../refresh/light.js';
import { resultBudget } from './client-forwarding.js';
import { type BatonMcpServer, type BatonMcpServerOptions, createMcpServer } from './create-mcp-server.js';
import { checkMcpServerOptions } from './mcp-options-schema.js';
import { WorkspaceRegistry } from './workspace-state.js';

/**
 * Serves Baton over stdio until the client closes stdin. stdout belongs to the protocol: every
 * log line goes to stderr (pino's destination in observability/).
 */
export async function serveStdio(options: BatonMcpServerOptions = {}): Promise<void> {
  checkMcpServerOptions(options, 'serveStdio');
  const registry = options.registry ?? new WorkspaceRegistry();
  const { server, watcher, profile } = createMcpServer({ ...options, registry });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  // Renders for the budgets this client's calls will ask for (known once it has initialized).
  const budget = (format: keyof typeof FORMAT_TOKEN_CAPS) => resultBudget(FORMAT_TOKEN_CAPS[format], profile());
  void registry.warm(options.workspace, { gate: afterInitialize(server), budget });
  logLater('info', { workspace: options.workspace ?? null }, 'baton mcp: serving on stdio');
  await closed;
  watcher.stop();
  await server.close().catch(() => undefined);
  await registry.close();
}

/** @default 50: warm-up starts this long after start-up when no `initialized` notification came. */
const WARM_UP_FALLBACK_MS = 50;

/**
 * Resolves once the client has its `initialize` answer (the `initialized` notification) or after
 * WARM_UP_FALLBACK_MS for a client that waits: the warm-up's module loads hold the event loop
 * and must not delay the handshake.
 */
function afterInitialize(server: BatonMcpServer['server']): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, WARM_UP_FALLBACK_MS);
    timer.unref();
    const previous = server.server.oninitialized;
    server.server.oninitialized = () => {
      previous?.();
      clearTimeout(timer);
      setImmediate(resolve);
    };
  });
}
