import type { ServerResponse } from 'node:http';
import type { ApiAdapter, ParsedRequest } from '../api-adapter.js';
import type { OfferedTool, SeenToolCall, SeenToolResult, ViewMessage } from '../types.js';
import { argsJson, type ModelReply, openSse, parseArgs, type ResolvedCall, sendJson, textOf, usageOf, type Wire } from '../wire.js';
import { openAiErrorBody } from './openai-error.js';

/**
 * The OpenAI Responses API (`POST /v1/responses`), as Codex CLI calls it: always streaming, the
 * answer as `response.created`, `response.output_item.added`/`.done` per item and
 * `response.completed` with usage. Tool calls are `function_call` items (JSON arguments) or
 * `custom_tool_call` items for freeform tools (Codex's `apply_patch`, whose input is the patch text).
 */
export const openAiResponsesApi: ApiAdapter = {
  api: 'openai-responses',
  route: (method, pathname) => (method === 'POST' && pathname.endsWith('/responses') ? 'model' : undefined),
  parse,
  reply,
  countReply: () => ({ input_tokens: 100 }),
  errorBody: openAiErrorBody,
};

function offered(tool: Wire, namespace?: string): OfferedTool[] {
  if (tool.type === 'namespace') return ((tool.tools ?? []) as Wire[]).flatMap((t) => offered(t, String(tool.name)));
  if (tool.type === 'tool_search')
    return [{ name: 'tool_search', description: String(tool.description ?? ''), schema: tool.parameters, kind: 'tool_search' }];
  if (typeof tool.name !== 'string') return [];
  const custom = tool.type === 'custom';
  return [
    {
      name: tool.name,
      description: String(tool.description ?? ''),
      schema: custom ? tool.format : tool.parameters,
      kind: custom ? 'custom' : 'function',
      ...(namespace ? { namespace } : {}),
    },
  ];
}

function outputText(output: unknown): { text: string; failed: boolean } {
  if (output && typeof output === 'object' && !Array.isArray(output)) {
    const wrapped = output as Wire;
    return { text: textOf(wrapped.content), failed: wrapped.success === false };
  }
  return { text: textOf(output), failed: false };
}

function parse(body: Wire): ParsedRequest {
  const messages: ViewMessage[] = [];
  const toolCalls: SeenToolCall[] = [];
  const toolResults: SeenToolResult[] = [];
  let prompt = '';
  const tools = ((body.tools ?? []) as Wire[]).flatMap((t) => offered(t));
  const input: Wire[] = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? []);
  for (const item of input) {
    const type = item.type ?? (item.role ? 'message' : undefined);
    if (type === 'message') {
      const role = ['assistant', 'developer', 'system'].includes(item.role) ? (item.role as ViewMessage['role']) : 'user';
      messages.push({ role, text: textOf(item.content) });
      if (role === 'user') prompt = textOf(item.content);
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      toolCalls.push({ id: String(item.call_id), name: String(item.name), args: parseArgs(item.arguments ?? item.input) });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const { text, failed } = outputText(item.output);
      const call = toolCalls.find((c) => c.id === item.call_id);
      toolResults.push({ callId: String(item.call_id), name: call?.name ?? '?', text, isError: failed });
      messages.push({ role: 'tool', text });
    } else if (type === 'tool_search_call') {
      toolCalls.push({ id: String(item.call_id), name: 'tool_search', args: parseArgs(item.arguments) });
    } else if (type === 'tool_search_output') {
      // Tools a client-side tool search loaded (Codex's deferred MCP tools) are offered from now on.
      const loaded = ((item.tools ?? []) as Wire[]).flatMap((t) => offered(t));
      tools.push(...loaded);
      const text = loaded.map((t) => (t.namespace ? `${t.namespace}.${t.name}` : t.name)).join('\n');
      toolResults.push({ callId: String(item.call_id), name: 'tool_search', text, isError: false });
      messages.push({ role: 'tool', text });
    }
  }
  return {
    model: String(body.model ?? ''),
    stream: body.stream === true,
    system: typeof body.instructions === 'string' ? body.instructions : '',
    messages,
    prompt,
    tools,
    toolCalls,
    toolResults,
  };
}

function outputItem(call: ResolvedCall): Wire {
  if (call.kind === 'tool_search')
    return {
      type: 'tool_search_call',
      id: `ts_${call.id}`,
      call_id: call.id,
      execution: 'client',
      status: 'completed',
      arguments: call.args,
    };
  if (call.kind === 'custom')
    return {
      type: 'custom_tool_call',
      id: `ctc_${call.id}`,
      call_id: call.id,
      name: call.name,
      input: argsJson(call.args),
      status: 'completed',
    };
  return {
    type: 'function_call',
    id: `fc_${call.id}`,
    call_id: call.id,
    name: call.name,
    ...(call.namespace ? { namespace: call.namespace } : {}),
    arguments: argsJson(call.args),
    status: 'completed',
  };
}

function outputItems(answer: ModelReply): Wire[] {
  const items: Wire[] = [];
  if (answer.text !== undefined || answer.calls.length === 0) {
    items.push({
      type: 'message',
      id: `msg_${Date.now()}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: answer.text ?? '', annotations: [] }],
    });
  }
  return [...items, ...answer.calls.map(outputItem)];
}

function usageWire(answer: ModelReply): Wire {
  const { input, output } = usageOf(answer);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

function reply(res: ServerResponse, answer: ModelReply, request: ParsedRequest): void {
  const items = outputItems(answer);
  const response = { id: `resp_${Date.now()}`, object: 'response', created_at: Math.floor(Date.now() / 1000), model: request.model };
  if (!request.stream) {
    sendJson(res, { ...response, status: 'completed', output: items, usage: usageWire(answer) });
    return;
  }
  const sse = openSse(res);
  const send = (type: string, data: Wire) => sse.send(type, { type, ...data });
  send('response.created', { response: { ...response, status: 'in_progress', output: [] } });
  items.forEach((item, index) => {
    send('response.output_item.added', { output_index: index, item: item.type === 'message' ? { ...item, content: [] } : item });
    if (item.type === 'message') {
      const text = String(item.content[0].text);
      send('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: text });
    }
    send('response.output_item.done', { output_index: index, item });
  });
  send('response.completed', { response: { ...response, status: 'completed', output: items, usage: usageWire(answer) } });
  sse.end();
}
