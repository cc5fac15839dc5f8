import type { ServerResponse } from 'node:http';
import type { ApiAdapter, ParsedRequest } from '../api-adapter.js';
import type { SeenToolCall, SeenToolResult, ViewMessage } from '../types.js';
import { type ModelReply, openSse, sendJson, textOf, usageOf, type Wire } from '../wire.js';

/** Anthropic Messages (`POST /v1/messages`, SSE when `stream: true`), as Claude Code calls it. */
export const anthropicApi: ApiAdapter = {
  api: 'anthropic',
  route: (method, pathname) => {
    if (method !== 'POST') return undefined;
    if (pathname.endsWith('/v1/messages/count_tokens')) return 'count';
    return pathname.endsWith('/v1/messages') ? 'model' : undefined;
  },
  parse,
  reply,
  countReply: () => ({ input_tokens: 100 }),
  errorBody: (status, message) => ({ type: 'error', error: { type: errorType(status), message } }),
};

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  if (status === 401) return 'authentication_error';
  if (status === 400) return 'invalid_request_error';
  return 'api_error';
}

function parse(body: Wire): ParsedRequest {
  const messages: ViewMessage[] = [];
  const toolCalls: SeenToolCall[] = [];
  const toolResults: SeenToolResult[] = [];
  let prompt = '';
  for (const message of (body.messages ?? []) as Wire[]) {
    const blocks: Wire[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    const text = textOf(blocks.filter((b) => b.type === 'text'));
    if (text) messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', text });
    if (text && message.role === 'user' && !blocks.some((b) => b.type === 'tool_result')) prompt = text;
    for (const block of blocks) {
      if (block.type === 'tool_use') toolCalls.push({ id: String(block.id), name: String(block.name), args: block.input ?? {} });
      if (block.type !== 'tool_result') continue;
      const resultText = textOf(block.content);
      const call = toolCalls.find((c) => c.id === block.tool_use_id);
      toolResults.push({ callId: String(block.tool_use_id), name: call?.name ?? '?', text: resultText, isError: block.is_error === true });
      messages.push({ role: 'tool', text: resultText });
    }
  }
  return {
    model: String(body.model ?? ''),
    stream: body.stream === true,
    system: textOf(body.system),
    messages,
    prompt,
    tools: ((body.tools ?? []) as Wire[]).map((t) => ({
      name: String(t.name),
      description: String(t.description ?? ''),
      schema: t.input_schema,
      kind: 'function' as const,
    })),
    toolCalls,
    toolResults,
  };
}

function blocksOf(answer: ModelReply): Wire[] {
  const blocks: Wire[] = [];
  if (answer.text !== undefined || answer.calls.length === 0) blocks.push({ type: 'text', text: answer.text ?? '' });
  for (const call of answer.calls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
  return blocks;
}

function reply(res: ServerResponse, answer: ModelReply, request: ParsedRequest): void {
  const blocks = blocksOf(answer);
  const stopReason = answer.calls.length > 0 ? 'tool_use' : 'end_turn';
  const tokens = usageOf(answer);
  const usage = { input_tokens: tokens.input, output_tokens: tokens.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: `msg_scripted_${Date.now()}`, type: 'message', role: 'assistant', model: request.model || 'claude-scripted' };
  if (!request.stream) {
    sendJson(res, { ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }
  const sse = openSse(res);
  const send = (type: string, data: Wire) => sse.send(type, { type, ...data });
  send('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage } });
  blocks.forEach((block, index) => {
    const isTool = block.type === 'tool_use';
    send('content_block_start', { index, content_block: isTool ? { ...block, input: {} } : { type: 'text', text: '' } });
    const delta = isTool
      ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
      : { type: 'text_delta', text: String(block.text) };
    send('content_block_delta', { index, delta });
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: tokens.output } });
  send('message_stop', {});
  sse.end();
}
