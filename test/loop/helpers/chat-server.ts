import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted reply of the local OpenAI-compatible server. */
export type ScriptedReply =
  | { status: number; error: string; headers?: Record<string, string> }
  | { text: string }
  | { toolCalls: { id: string; name: string; args: Record<string, unknown> }[] };

export interface ChatServer {
  baseURL: string;
  /** Parsed JSON bodies of every /chat/completions request, in order. */
  requests: { messages: { role: string; content?: unknown; tool_call_id?: string; tool_calls?: { id: string }[] }[] }[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol with scripted
 * replies (the last one repeats), so the retry ladder and the AI SDK adapter run end to end.
 */
export async function startChatServer(script: ScriptedReply[]): Promise<ChatServer> {
  const requests: ChatServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      requests.push(JSON.parse(body));
      const reply = script[Math.min(requests.length - 1, script.length - 1)] as ScriptedReply;
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify({ error: { message: reply.error, type: 'error', code: reply.status } }));
        return;
      }
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
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 0,
          model: 'local-model',
          choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
