import type { ParsedRequest } from './api-adapter.js';
import { detectClient } from './detect-client.js';
import { exitCodeOf } from './exit-code.js';
import type { LoggedRequest, ModelApi, ModelRequestView } from './types.js';

/** Completes a parsed request into the view the script sees. */
export function toView(api: ModelApi, request: ParsedRequest, entry: LoggedRequest, side: boolean): ModelRequestView {
  const toolResults = request.toolResults.map((result) => {
    const exitCode = exitCodeOf(result.name, result.text);
    if (exitCode === undefined) return result;
    return { ...result, exitCode, isError: result.isError || exitCode !== 0 };
  });
  const said = request.messages.filter((m) => m.role === 'user' || m.role === 'developer');
  return {
    api,
    client: detectClient(entry.headers),
    path: entry.path,
    model: request.model,
    stream: request.stream,
    system: request.system,
    messages: request.messages,
    text: said.map((m) => m.text).join('\n'),
    prompt: request.prompt,
    tools: request.tools,
    toolCalls: request.toolCalls,
    toolResults,
    side,
  };
}
