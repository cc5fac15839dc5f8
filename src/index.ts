/**
 * Baton as a library: the ledger, token budgeting, pre-context builders, supervisor, refresh_context,
 * MCP server, panel and agent-loop context manager. Each module's own index.ts is its public face.
 */
export * from './budget/index.js';
export * from './errors/index.js';
export * from './ledger/index.js';
export * from './observability/index.js';
export * from './tokens/index.js';
export * from './config/index.js';
export * from './providers/index.js';
export * from './workspace/index.js';
export * from './redact/index.js';
export * from './precontext/index.js';
export * from './prompt/index.js';
export * from './supervisor/index.js';
export * from './refresh/index.js';
export * from './mcp/index.js';
export * from './panel/index.js';
export * from './summarize/index.js';
export * from './serve/index.js';
export * from './loop/index.js';
