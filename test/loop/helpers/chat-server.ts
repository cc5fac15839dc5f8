import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted reply of the local server. */
export type ScriptedReply =
  | { status: number; error: string; headers?: Record<string, string> }
  | { text: string }
  | { toolCalls: { id: string; name: string; args: Record<string, unknown> }[] };

type WireMessage = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: { id: string }[] };

/** One request as the server received it. */
export interface ReceivedRequest {
  /** `chat` for /chat/completions, `responses` for the OpenAI Responses API (/responses). */
  api: 'chat' | 'responses';
  stream: boolean;
  /** The chat messages, or the Responses API's `instructions` (as a system message) and `input` items. */
  messages: WireMessage[];
  /** What the model reads: messages (or items) counted, and the characters of their texts and tool arguments. */
  size: { messages: number; chars: number };
  body: Record<string, unknown>;
}

export interface ChatServer {
  baseURL: string;
  /** Every request, in order. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol and the OpenAI
 * Responses API, both plain and streamed (SSE), with scripted replies (the last one repeats), so
 * the retry ladder and the framework adapters run end to end over HTTP.
 */
export async function startChatServer(script: ScriptedReply[]): Promise<ChatServer> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => answer(req, res, JSON.parse(body) as Record<string, unknown>));
  });
  const answer = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => {
    const api = req.url?.endsWith('/responses') ? 'responses' : 'chat';
    const messages = api === 'chat' ? (body.messages as WireMessage[]) : responsesMessages(body);
    requests.push({ api, stream: body.stream === true, messages, size: sizeOf(api === 'chat' ? messages : body), body });
    const reply = script[Math.min(requests.length - 1, script.length - 1)] as ScriptedReply;
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify({ error: { message: reply.error, type: 'error', code: String(reply.status) } }));
    } else if (api === 'responses') sendResponse(res, reply, requests.length, body.stream === true);
    else if (body.stream === true) sendChatStream(res, reply, requests.length);
    else sendChat(res, reply, requests.length);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

type Answer = Exclude<ScriptedReply, { status: number }>;

function sendChat(res: ServerResponse, reply: Answer, n: number): void {
  const message =
    'text' in reply
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: reply.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
        };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      created: 0,
      model: 'local-model',
      choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
  );
}

function sendChatStream(res: ServerResponse, reply: Answer, n: number): void {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 0, model: 'local-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if ('text' in reply) {
    const half = Math.ceil(reply.text.length / 2);
    res.write(chunk({ role: 'assistant', content: reply.text.slice(0, half) }, null));
    res.write(chunk({ content: reply.text.slice(half) }, 'stop'));
  } else {
    const calls = reply.toolCalls.map((c, index) => ({
      index,
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    res.write(chunk({ role: 'assistant', tool_calls: calls }, null));
    res.write(chunk({}, 'tool_calls'));
  }
  res.end('data: [DONE]\n\n');
}

function sendResponse(res: ServerResponse, reply: Answer, n: number, stream: boolean): void {
  const output =
    'text' in reply
      ? [
          {
            type: 'message',
            id: `msg_${n}`,
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: reply.text, annotations: [] }],
          },
        ]
      : reply.toolCalls.map((c, i) => ({
          type: 'function_call',
          id: `fc_${n}_${i}`,
          call_id: c.id,
          name: c.name,
          arguments: JSON.stringify(c.args),
          status: 'completed',
        }));
  const response = {
    id: `resp_${n}`,
    object: 'response',
    created_at: 0,
    status: 'completed',
    model: 'local-model',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let seq = 0;
  const event = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  event('response.created', { response: { ...response, status: 'in_progress', output: [] } });
  if ('text' in reply) event('response.output_text.delta', { item_id: `msg_${n}`, output_index: 0, content_index: 0, delta: reply.text });
  event('response.completed', { response });
  res.end();
}

/** The Responses API's instructions and input items, as chat-like messages for the assertions. */
function responsesMessages(body: Record<string, unknown>): WireMessage[] {
  const input =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input ?? []) as Record<string, unknown>[]);
  const items = input.map((item): WireMessage => {
    if (item.type === 'function_call') return { role: 'assistant', tool_calls: [{ id: String(item.call_id) }], content: item.arguments };
    if (item.type === 'function_call_output') return { role: 'tool', tool_call_id: String(item.call_id), content: item.output };
    return { role: String(item.role), content: item.content };
  });
  return typeof body.instructions === 'string' ? [{ role: 'system', content: body.instructions }, ...items] : items;
}

function sizeOf(messagesOrBody: WireMessage[] | Record<string, unknown>): { messages: number; chars: number } {
  const messages = Array.isArray(messagesOrBody) ? messagesOrBody : responsesMessages(messagesOrBody);
  const chars = messages.reduce((sum, m) => sum + textOf(m.content) + JSON.stringify(m.tool_calls ?? []).length - 2, 0);
  return { messages: messages.length, chars };
}

function textOf(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (Array.isArray(content)) return content.reduce((sum: number, part) => sum + textOf((part as { text?: unknown }).text ?? part), 0);
  if (content && typeof content === 'object') return JSON.stringify(content).length;
  return 0;
}
