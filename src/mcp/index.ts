export * from './light.js';
export { clientProfile, resultBudget, UNKNOWN_CLIENT_WRAPPER_TOKENS } from './client-forwarding.js';
export { RESOURCE_NOT_FOUND } from './context-resources.js';

export { createBatonMcpServer } from './create-mcp-server.js';
export { DEFAULT_HTTP_HOST, exposureCheck, isLoopbackHost, serveHttp } from './serve-http.js';

export { DEFAULT_LISTED_CONTEXTS } from './recent-open-tasks.js';

export type { BatonMcpServer } from './create-mcp-server.js';
export type { ForwardingOverride } from './client-forwarding.js';

export type { HttpMcpServer, ServeHttpOptions } from './serve-http.js';
