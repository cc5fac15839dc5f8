/** The wire APIs the scripted model server speaks. */
export type ModelApi = 'anthropic' | 'gemini' | 'openai-responses' | 'openai-chat';

/** The agent CLI that sent a request, told from its headers; `unknown` for anything else (an SDK, curl). */
export type AgentClient = 'claude' | 'gemini' | 'codex' | 'copilot' | 'opencode' | 'unknown';

/** A tool the client offered the model. */
export interface OfferedTool {
  /** The name the model must call it by (Claude's MCP tools: `mcp__baton__refresh_context`). */
  name: string;
  description: string;
  /** JSON schema of the arguments; for a freeform tool (Codex's `apply_patch`) its grammar format. */
  schema: unknown;
  /**
   * `custom`: a Responses API freeform tool whose input is a plain string, not JSON arguments.
   * `tool_search`: a Responses API tool search run by the client (Codex offers its MCP tools this
   * way for models it knows: the tools it loads are offered from the next request on).
   */
  kind: 'function' | 'custom' | 'tool_search';
  /** Responses API namespaces (Codex groups some tools): the namespace the tool sits in. */
  namespace?: string;
}

/** A tool call the model made earlier in the conversation (the client sends the whole history back). */
export interface SeenToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments, or the raw string of a freeform tool. */
  args: Record<string, unknown> | string;
}

/** A tool result the client sent back to the model. */
export interface SeenToolResult {
  /** The id of the call it answers (Gemini may omit ids: then `name#index`). */
  callId: string;
  /** The tool's name, from the call it answers when the wire format does not repeat it. */
  name: string;
  /** The result as the model reads it (content blocks joined with newlines). */
  text: string;
  /** The client flagged it as an error (Anthropic `is_error`, Gemini `response.error`), or a shell exited non-zero. */
  isError: boolean;
  /** A shell command's exit code, read from the client's own wording ("Exit code 3", "Process exited with code 3"). */
  exitCode?: number;
}

/** One message of the conversation, in order, reduced to its text. */
export interface ViewMessage {
  role: 'user' | 'assistant' | 'developer' | 'system' | 'tool';
  text: string;
}

/** What the scripted `respond` function sees of one model request, whatever the wire API. */
export interface ModelRequestView {
  api: ModelApi;
  client: AgentClient;
  /** The request path, e.g. `/v1/messages`, `/v1beta/models/gemini-2.5-pro:streamGenerateContent`. */
  path: string;
  /** The model name the client asked for. */
  model: string;
  stream: boolean;
  /** System prompt text (Anthropic `system`, Gemini `systemInstruction`, Responses `instructions`, chat `system` messages). */
  system: string;
  /** Every message, in order (tool results appear as role `tool`, the model's calls are in `toolCalls`). */
  messages: ViewMessage[];
  /** The text of every user and developer message, joined with newlines: what the prompt and the client's injections said. */
  text: string;
  /** The text of the last user message that is not only tool results: the current prompt. */
  prompt: string;
  tools: OfferedTool[];
  toolCalls: SeenToolCall[];
  toolResults: SeenToolResult[];
  /**
   * A side request: no tools offered, or a JSON-mode request (Gemini's router and next-speaker
   * checks, Claude's titles and quota probes). Answered with canned text unless the server was
   * started with `scriptSideRequests: true`.
   */
  side: boolean;
}

/**
 * Token counts a reply reports in its API's usage fields (`input_tokens`, `promptTokenCount`,
 * `prompt_tokens`), for a client that compacts by them (Codex's `model_auto_compact_token_limit`,
 * Gemini's compression threshold). Default: 100 in, 20 out.
 */
export interface ReportedUsage {
  inputTokens: number;
  outputTokens?: number;
}

/** Ask the model to answer with text and end its turn. */
export interface TextAction {
  text: string;
  /** @default { inputTokens: 100, outputTokens: 20 } */
  usage?: ReportedUsage;
}

/** Ask the model to call a tool. */
export interface ToolCallAction {
  /**
   * The tool's name. Matched exactly, else as the suffix of an offered name after `__`, `_`, `.` or
   * `/` (so `refresh_context` finds Claude's `mcp__baton__refresh_context`).
   */
  tool: string;
  /** JSON arguments, or the raw input of a freeform (custom) tool such as Codex's `apply_patch`. */
  args: Record<string, unknown> | string;
  /** Used instead when `tool` is not offered (e.g. Codex without `apply_patch` writes through its shell). */
  fallback?: ToolCallAction;
  /** @default { inputTokens: 100, outputTokens: 20 } */
  usage?: ReportedUsage;
}

/** Ask for several tool calls in one model turn (parallel calls), optionally with text before them. */
export interface ToolCallsAction {
  toolCalls: ToolCallAction[];
  text?: string;
  /** @default { inputTokens: 100, outputTokens: 20 } */
  usage?: ReportedUsage;
}

/** Fail the request with an HTTP error in the API's own error shape. */
export interface FailAction {
  fail: HttpFailure;
}

export interface HttpFailure {
  /** e.g. 429, 500, 503, or 529 (Anthropic's overloaded). */
  status: number;
  /** Default: a message naming the status. */
  message?: string;
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number;
  /** More response headers. */
  headers?: Record<string, string>;
  /** Replaces the API-shaped error body entirely. */
  body?: unknown;
}

export type ModelAction = TextAction | ToolCallAction | ToolCallsAction | FailAction;

/** The script: one answer per model request. May be async. */
export type Respond = (view: ModelRequestView) => ModelAction | Promise<ModelAction>;

/** One request as the server saw and answered it. */
export interface LoggedRequest {
  /** 0-based, in arrival order. */
  index: number;
  method: string;
  path: string;
  /** Request headers (lower-case names). */
  headers: Record<string, string>;
  /** The raw body as received (decompressed), for size assertions: `Buffer.byteLength(bodyText)`. */
  bodyText: string;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  /** The normalized view, for a model request (undefined for count_tokens, model lists, unknown paths). */
  view?: ModelRequestView;
  /** What the server answered with: the action (model requests) and the HTTP status. */
  action?: ModelAction;
  status: number;
  /** Milliseconds since the server started. */
  at: number;
}
