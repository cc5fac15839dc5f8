// The light face of mcp/: what `baton mcp` over stdio needs, without the HTTP transport (its
// server, sessions and Hono), which `--http` loads from index.ts. index.ts re-exports it all.
// refresh/light.ts says why a module has a second face.
export { parseForwardingOverride } from './client-forwarding.js';
export { serveStdio } from './serve-stdio.js';
export { WorkspaceRegistry } from './workspace-state.js';
export type { BatonMcpServerOptions } from './create-mcp-server.js';
