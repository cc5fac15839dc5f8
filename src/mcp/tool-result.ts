import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, isBatonError } from '../errors/index.js';
// logger.js, not the index: the index also loads prom-client, which start-up does not need.
import { getLogger } from '../observability/logger.js';
import { redactValue } from '../redact/index.js';

/**
 * A successful tool result in both forms: `structuredContent` and the same JSON (or the given
 * text) as a text block. Every string is passed through the redactor unless the caller already did.
 */
export async function okResult(
  structured: Record<string, unknown>,
  options: { text?: string; redacted?: boolean } = {},
): Promise<CallToolResult> {
  if (options.redacted) {
    return { content: [{ type: 'text', text: options.text ?? JSON.stringify(structured, null, 1) }], structuredContent: structured };
  }
  const { value } = await redactValue({ structured, text: options.text });
  return {
    content: [{ type: 'text', text: value.text ?? JSON.stringify(value.structured, null, 1) }],
    structuredContent: value.structured,
  };
}

/** Seed 002 §4.3 error shape, `{"error": …, "code": …}`, as an `isError` result (redacted). */
export async function errorResult(error: unknown): Promise<CallToolResult> {
  const code = isBatonError(error) ? error.code : 'INTERNAL';
  if (!isBatonError(error)) getLogger().error({ err: errorMessage(error) }, 'mcp tool failed');
  const details = isBatonError(error) && Object.keys(error.details).length > 0 ? { details: error.details } : {};
  const { value } = await redactValue({ error: errorMessage(error), code, ...details });
  return { content: [{ type: 'text', text: JSON.stringify(value) }], isError: true };
}

/** Runs a handler and turns any throw into an `isError` result, so no tool ever crashes a session. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return errorResult(error);
  }
}
