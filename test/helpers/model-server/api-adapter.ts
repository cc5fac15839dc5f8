import type { ServerResponse } from 'node:http';
import type { ModelApi, OfferedTool, SeenToolCall, SeenToolResult, ViewMessage } from './types.js';
import type { ModelReply, Wire } from './wire.js';

/** One request parsed from an API's wire format; the server completes it into a ModelRequestView. */
export interface ParsedRequest {
  model: string;
  stream: boolean;
  system: string;
  messages: ViewMessage[];
  /** The text of the last user message that carries no tool results: the prompt of the current turn. */
  prompt: string;
  tools: OfferedTool[];
  toolCalls: SeenToolCall[];
  /** Results without the exit-code reading, which the server adds. */
  toolResults: SeenToolResult[];
  /** The client asked for a JSON answer (Gemini's router and next-speaker checks). */
  json?: { schema?: unknown };
}

/** What the server needs of one wire API. */
export interface ApiAdapter {
  api: ModelApi;
  /** `model` for a generation request, `count` for token counting, undefined when the path is not this API's. */
  route(method: string, pathname: string): 'model' | 'count' | undefined;
  parse(body: Wire, pathname: string): ParsedRequest;
  reply(res: ServerResponse, reply: ModelReply, request: ParsedRequest): void;
  /** The body of a token-count answer. */
  countReply(): unknown;
  /** An error body in this API's shape. */
  errorBody(status: number, message: string): unknown;
}
