import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { BATON_VERSION } from '../version/index.js';
import { type ClientProfile, clientProfile, type ForwardingOverride } from './client-forwarding.js';
import { registerContextResources } from './context-resources.js';
import type { ContextWatcher } from './context-watcher.js';
import { LazyAjvValidator } from './lazy-json-schema-validator.js';
import { checkMcpServerOptions } from './mcp-options-schema.js';
import { registerContextSnapshots } from './tools/context-snapshots-tool.js';
import { registerDebtTool } from './tools/debt-tool.js';
import { registerDispatchTool } from './tools/dispatch-tool.js';
import { registerPrepOrchestrator } from './tools/prep-orchestrator.js';
import { registerRefreshContext } from './tools/refresh-context-tool.js';
import { registerTaskTool } from './tools/task-tool.js';
import { registerWorkspaceHandshake } from './tools/workspace-handshake.js';
import { WorkspaceRegistry, WorkspaceState } from './workspace-state.js';

export interface BatonMcpServerOptions {
  /** Shared ledgers and git cache (one per process). @default a new registry */
  registry?: WorkspaceRegistry;
  /** Workspace active from the start, so clients may skip the handshake. @default none */
  workspace?: string;
  /** Session id used for freshness tracking. @default a random id per server */
  sessionId?: () => string;
  /** @default DEFAULT_WATCH_INTERVAL_MS */
  watchIntervalMs?: number;
  /** @default package version */
  version?: string;
  /**
   * What the client gives its model of a tool result, when Baton does not know the client
   * (`BATON_MCP_FORWARDS`). @default from the client's `initialize` clientInfo (client-forwarding.ts)
   */
  forwards?: ForwardingOverride;
}

export interface BatonMcpServer {
  server: McpServer;
  state: WorkspaceState;
  watcher: ContextWatcher;
  /** How this session's client handles tool results; known once it has initialized. */
  profile: () => ClientProfile;
}

/**
 * Builds one MCP server (one per client session): the Baton tools, the context resources with
 * subscriptions, and this session's workspace state. Connect it to a transport to serve.
 * @throws BatonError CONFIG_INVALID for an unknown option (naming the spelling expected) or a value of the wrong type.
 */
export function createBatonMcpServer(options: BatonMcpServerOptions = {}): BatonMcpServer {
  checkMcpServerOptions(options, 'createBatonMcpServer');
  return createMcpServer(options);
}

/** createBatonMcpServer without the check, for serveStdio and serveHttp (which check their own options). */
export function createMcpServer(options: BatonMcpServerOptions): BatonMcpServer {
  const registry = options.registry ?? new WorkspaceRegistry();
  const state = new WorkspaceState(registry, options.workspace);
  const fallbackId = `mcp-${randomUUID()}`;
  const sessionId = options.sessionId ?? (() => fallbackId);
  const server = new McpServer(
    { name: 'baton', title: 'Baton', version: options.version ?? BATON_VERSION },
    {
      instructions:
        'Baton keeps your context across sessions. Call workspace_handshake(project_root) first, then refresh_context to resume work; read metadata.warnings for staleness.',
      jsonSchemaValidator: new LazyAjvValidator(),
    },
  );
  registerWorkspaceHandshake(server, state);
  const profile = () => clientProfile(server.server.getClientVersion()?.name, options.forwards);
  registerRefreshContext(server, state, sessionId, profile);
  registerTaskTool(server, state);
  registerDispatchTool(server, state);
  registerDebtTool(server, state);
  registerPrepOrchestrator(server, state);
  registerContextSnapshots(server, state);
  const watcher = registerContextResources(server, state, { sessionId, profile, watchIntervalMs: options.watchIntervalMs });
  server.server.onclose = () => watcher.stop();
  return { server, state, watcher, profile };
}
