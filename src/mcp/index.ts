export * from './light.js';
export { clientProfile, KNOWN_CLIENTS, resultBudget, textBlockFor, UNKNOWN_CLIENT_WRAPPER_TOKENS } from './client-forwarding.js';
export { CONTEXT_URI_TEMPLATE, CURRENT_CONTEXT_URI, RESOURCE_NOT_FOUND, registerContextResources } from './context-resources.js';
export { ContextWatcher, DEFAULT_WATCH_INTERVAL_MS, taskIdOf } from './context-watcher.js';
export { createBatonMcpServer } from './create-mcp-server.js';
export {
  DEFAULT_HTTP_HOST,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  exposureCheck,
  isLoopbackHost,
  MCP_HTTP_PATH,
  serveHttp,
} from './serve-http.js';
export { ERROR_META_KEY, errorResult, okResult } from './tool-result.js';
export { registerCheckedTool } from './register-checked-tool.js';
export { isUnavailableLedger } from './unavailable-ledger.js';
export { DEFAULT_LISTED_CONTEXTS, recentOpenTasks } from './recent-open-tasks.js';
export { DEFAULT_LEASE_MS } from './tools/dispatch-tool.js';
export { WorkspaceState } from './workspace-state.js';
export type { BatonMcpServer } from './create-mcp-server.js';
export type { ClientForwarding, ClientProfile, ForwardingOverride } from './client-forwarding.js';
export type { ContextWatcherOptions } from './context-watcher.js';
export type { HttpMcpServer, HttpServerLoad, ServeHttpOptions } from './serve-http.js';
export type { WarmUpOptions, WarmUpReport } from './warm-up.js';
export type { LedgerOpener } from './workspace-state.js';
