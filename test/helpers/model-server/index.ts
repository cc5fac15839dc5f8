/**
 * # The scripted model server
 *
 * One local HTTP server (127.0.0.1, port 0) that speaks every API the real agent CLIs call, so a
 * test runs Claude Code, Gemini CLI, Codex CLI or Copilot CLI against a model whose every turn the
 * test scripts, and then asserts on exactly what each client sent:
 *
 * | API | paths | used by |
 * |---|---|---|
 * | Anthropic Messages | `POST /v1/messages` (SSE or JSON), `/v1/messages/count_tokens` | Claude Code |
 * | Gemini | `POST …/models/M:generateContent`, `:streamGenerateContent` (SSE), `:countTokens` | Gemini CLI |
 * | OpenAI Responses | `POST /v1/responses` (SSE: `response.created`, `output_item.added/.done`, `response.completed`) | Codex CLI |
 * | OpenAI chat completions | `POST /v1/chat/completions` (SSE chunks, usage, `[DONE]`) | Copilot CLI (`COPILOT_PROVIDER_BASE_URL`) |
 * | model lists | `GET …/models` | any |
 *
 * ```ts
 * import { clientTools, fail, say, startModelServer } from '../helpers/model-server/index.js';
 * import { prepareAgentCli } from '../helpers/agent-clis/index.js';
 *
 * const server = await startModelServer({
 *   respond: (v) => {
 *     const tools = clientTools(v.client, { cwd: repo });         // Write / write_file / apply_patch / create …
 *     if (v.toolResults.length === 0) return tools.writeFile('greet.js', 'export const hi = 1;\n');
 *     if (v.toolResults.length === 1) return tools.runShell('node --test');
 *     return say('done');                                       // ends the client's turn
 *   },
 * });
 * const cli = await prepareAgentCli('codex', { serverUrl: server.url, cwd: repo });
 * const run = await cli.run('Write greet.js');                 // exit code, stdout, finalText
 * expect(server.problems).toEqual([]);
 * expect(server.turns.at(-1)?.toolResults.at(-1)?.exitCode).toBe(0);
 * await server.close();
 * ```
 *
 * - `respond(view)` gets a `ModelRequestView` of each model request, the same whatever the API:
 *   `api`, `client` (from the headers), `model`, `system`, `messages` (role + text, in order),
 *   `text` (all user/developer text: the prompt plus whatever the client or a hook injected),
 *   `prompt` (the last user text), `tools` offered (name, schema, `function`/`custom`),
 *   `toolCalls` made so far and `toolResults` received (`name`, `text`, `isError`, shell `exitCode`).
 *   The conversation is stateless: every request carries the whole history, so scripts decide from
 *   the view (e.g. how many tool results came back, or whether `v.text` holds a marker).
 * - It returns an action: `say(text)`; a tool call `{ tool, args }` (or `clientTools(client)`'s
 *   ready-made ones; `tool` is matched exactly or as a suffix, so `refresh_context` finds
 *   `mcp__baton__refresh_context`); `callTools(a, b)` for parallel calls; or
 *   `fail(429, { retryAfter: 2 })` for an HTTP error in that API's own error shape (429, 500, 503,
 *   Anthropic's 529 overloaded, or any `body`). A text or tool action may carry `usage`
 *   (`{ inputTokens, outputTokens }`, default 100 and 20): the token counts the reply reports, for
 *   a client that compacts by them (Codex's `model_auto_compact_token_limit`, Gemini's threshold).
 * - Side requests (no tools offered, or JSON mode: Claude's titles and quota probes, Gemini's router
 *   and next-speaker checks) get canned answers without reaching the script unless
 *   `scriptSideRequests: true`; they are still logged, with `view.side = true`.
 * - `server.requests` logs every request: path, headers, raw `bodyText` (sizes), parsed `body`,
 *   the `view`, the `action` and HTTP `status`. `server.turns` holds the scripted views in order.
 *   `server.problems` collects script errors (a tool the client did not offer, `respond` throwing),
 *   each answered with a non-retryable 400.
 *
 * What each client needs to point at it (env, config, headless flags) lives in
 * `test/helpers/agent-clis/`.
 */
export { callTool, callTools, fail, say } from './actions.js';
export { type ClientTools, type ClientToolsOptions, clientTools } from './client-tools.js';
export { type ModelServer, type ModelServerOptions, startModelServer } from './server.js';
export { findTool } from './resolve-tool.js';
export { SIDE_TEXT } from './side-requests.js';
export type {
  AgentClient,
  FailAction,
  HttpFailure,
  LoggedRequest,
  ModelAction,
  ModelApi,
  ModelRequestView,
  OfferedTool,
  ReportedUsage,
  Respond,
  SeenToolCall,
  SeenToolResult,
  TextAction,
  ToolCallAction,
  ToolCallsAction,
  ViewMessage,
} from './types.js';
