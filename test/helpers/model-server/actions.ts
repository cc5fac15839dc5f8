import type { FailAction, HttpFailure, TextAction, ToolCallAction, ToolCallsAction } from './types.js';

/** The model answers with text and ends its turn. */
export function say(text: string): TextAction {
  return { text };
}

/** The model calls one tool (by logical name, see ToolCallAction.tool). */
export function callTool(tool: string, args: Record<string, unknown> | string = {}): ToolCallAction {
  return { tool, args };
}

/** The model calls several tools in one turn. */
export function callTools(...toolCalls: ToolCallAction[]): ToolCallsAction {
  return { toolCalls };
}

/** The request fails with an HTTP error in the API's shape, e.g. `fail(429, { retryAfter: 1 })`. */
export function fail(status: number, options: Omit<HttpFailure, 'status'> = {}): FailAction {
  return { fail: { status, ...options } };
}
