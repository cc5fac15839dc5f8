import type { ServerResponse } from 'node:http';
import type { ApiAdapter, ParsedRequest } from '../api-adapter.js';
import type { SeenToolCall, SeenToolResult, ViewMessage } from '../types.js';
import { argsJson, type ModelReply, openSse, parseArgs, sendJson, textOf, usageOf, type Wire } from '../wire.js';
import { openAiErrorBody } from './openai-error.js';

/**
 * OpenAI chat completions (`POST /v1/chat/completions`, SSE chunks ending in `data: [DONE]` when
 * streaming, a usage chunk when `stream_options.include_usage`), as Copilot CLI calls it with its
 * own model provider (`COPILOT_PROVIDER_BASE_URL`, the default `completions` wire API).
 */
export const openAiChatApi: ApiAdapter = {
  api: 'openai-chat',
  route: (method, pathname) => (method === 'POST' && pathname.endsWith('/chat/completions') ? 'model' : undefined),
  parse,
  reply,
  countReply: () => ({ input_tokens: 100 }),
  errorBody: openAiErrorBody,
};

function parse(body: Wire): ParsedRequest {
  const system: string[] = [];
  const messages: ViewMessage[] = [];
  const toolCalls: SeenToolCall[] = [];
  const toolResults: SeenToolResult[] = [];
  let prompt = '';
  for (const message of (body.messages ?? []) as Wire[]) {
    const text = textOf(message.content);
    if (message.role === 'system') {
      system.push(text);
      continue;
    }
    for (const call of (message.tool_calls ?? []) as Wire[])
      toolCalls.push({ id: String(call.id), name: String(call.function?.name), args: parseArgs(call.function?.arguments) });
    if (message.role === 'tool') {
      const call = toolCalls.find((c) => c.id === message.tool_call_id);
      toolResults.push({ callId: String(message.tool_call_id), name: call?.name ?? String(message.name ?? '?'), text, isError: false });
      messages.push({ role: 'tool', text });
    } else if (text) {
      if (message.role === 'user') prompt = text;
      messages.push({ role: ['assistant', 'developer'].includes(message.role) ? (message.role as ViewMessage['role']) : 'user', text });
    }
  }
  const format = body.response_format?.type as string | undefined;
  return {
    model: String(body.model ?? ''),
    stream: body.stream === true,
    system: system.join('\n'),
    messages,
    prompt,
    tools: ((body.tools ?? []) as Wire[])
      .filter((t) => t.function)
      .map((t) => ({
        name: String(t.function.name),
        description: String(t.function.description ?? ''),
        schema: t.function.parameters,
        kind: 'function' as const,
      })),
    toolCalls,
    toolResults,
    ...(format === 'json_object' || format === 'json_schema' ? { json: { schema: body.response_format?.json_schema?.schema } } : {}),
  };
}

function reply(res: ServerResponse, answer: ModelReply, request: ParsedRequest): void {
  const toolCalls = answer.calls.map((call, index) => ({
    index,
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: argsJson(call.args) },
  }));
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const content = answer.text ?? (toolCalls.length > 0 ? null : '');
  const head = { id: `chatcmpl-${Date.now()}`, created: Math.floor(Date.now() / 1000), model: request.model || 'gpt-scripted' };
  const tokens = usageOf(answer);
  const usage = { prompt_tokens: tokens.input, completion_tokens: tokens.output, total_tokens: tokens.input + tokens.output };
  if (!request.stream) {
    const message = {
      role: 'assistant',
      content,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map(({ index: _, ...c }) => c) } : {}),
    };
    sendJson(res, { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage });
    return;
  }
  const sse = openSse(res);
  const chunk = (delta: Wire, finishReason: string | null) =>
    sse.send(undefined, { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] });
  chunk({ role: 'assistant', content: content ?? '' }, null);
  if (toolCalls.length > 0) chunk({ tool_calls: toolCalls }, null);
  chunk({}, finish);
  sse.send(undefined, { ...head, object: 'chat.completion.chunk', choices: [], usage });
  sse.send(undefined, '[DONE]');
  sse.end();
}
