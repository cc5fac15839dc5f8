// Each schema of mcp-options-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { BatonMcpServerOptions } from './create-mcp-server.js';
import type { ServeHttpOptions } from './serve-http.js';
import type { httpSchema, serverSchema } from './mcp-options-schema.js';

export const MCP_SERVER_OPTIONS_MATCH: SchemaFor<BatonMcpServerOptions, typeof serverSchema> = true;
export const SERVE_HTTP_OPTIONS_MATCH: SchemaFor<ServeHttpOptions, typeof httpSchema> = true;
