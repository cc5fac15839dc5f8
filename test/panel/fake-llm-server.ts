import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat message as an OpenAI-compatible server receives it. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** The body of one /chat/completions request, as recorded. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  max_tokens?: number;
  [key: string]: unknown;
}

/** What the fake answers: text (streamed when the request asks), an HTTP error, or a delay first. */
export type Reply = { text: string; delayMs?: number } | { status: number; message?: string };

export interface FakeLlm {
  /** Base URL to put in a panel file (`…/v1`). */
  baseURL: string;
  /** Every request body, in arrival order. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

/** The system prompt of a recorded request ('' when there is none). */
export function systemOf(request: ChatRequest): string {
  const first = request.messages[0];
  return first?.role === 'system' ? first.content : '';
}

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 (random port) implementing
 * POST /v1/chat/completions, non-streaming and streaming (SSE), scripted per request.
 */
export async function startFakeLlm(script: (request: ChatRequest) => Reply): Promise<FakeLlm> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
    requests.push(body);
    const reply = script(body);
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: reply.message ?? `scripted ${reply.status}`, type: 'server_error' } }));
      return;
    }
    if (reply.delayMs) {
      // Ends early when the client goes away, so no timer outlives the test.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        res.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (res.destroyed) return;
    const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: object, finish: string | null, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    const pieces = reply.text.match(/\S+\s*/g) ?? [reply.text];
    pieces.forEach((piece, i) => {
      res.write(chunk(i === 0 ? { role: 'assistant', content: piece } : { content: piece }, null));
    });
    res.write(chunk({}, 'stop', { usage }));
    res.end('data: [DONE]\n\n');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
