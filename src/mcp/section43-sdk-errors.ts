import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { maskSecretsSync } from '../redact/index.js';

/**
 * Errors the SDK raises before a handler runs (input failing the tool's schema, an unknown tool)
 * reach the client through McpServer's private `createToolError`. Routing them into seed 002
 * §4.3's `{"error", "code"}` shape keeps one error format for clients to parse. If a future SDK
 * drops the method, its own message is kept: the error still arrives, only its shape differs.
 */
export function useSection43SdkErrors(server: McpServer): void {
  const target = server as unknown as { createToolError?: (message: string) => CallToolResult };
  if (typeof target.createToolError !== 'function') return;
  target.createToolError = sdkErrorResult;
}

/** A §4.3 `isError` result for an SDK-raised message (synchronous: the SDK calls it that way). */
export function sdkErrorResult(message: string): CallToolResult {
  const code = /input validation error|invalid arguments/i.test(message)
    ? 'INPUT_INVALID'
    : /not found/i.test(message)
      ? 'NOT_FOUND'
      : 'INTERNAL';
  const text = JSON.stringify({ error: maskSecretsSync(message).text, code });
  return { content: [{ type: 'text', text }], isError: true };
}
