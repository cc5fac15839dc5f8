import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local model server for the client-compatibility suite: it speaks the Anthropic Messages API
 * (streaming SSE, as Claude Code calls it, and plain JSON) and Gemini's `generateContent` /
 * `streamGenerateContent`, and answers every conversation with the same scripted list of tool
 * calls. The client runs each call through its own MCP code and sends the result back in its next
 * request: what it sent is recorded, so a test asserts on exactly what reached the model.
 *
 * The script step is the number of tool results already in the conversation, so a client's side
 * requests (titles, summaries, routing) that carry no tools just get a short text answer.
 */
export interface ScriptStep {
  /** Tool name as Baton registers it (matched against the client's prefixed name, e.g. mcp__baton__x). */
  tool: string;
  args: Record<string, unknown>;
  /** Optional: skip this step when the client offers no tool with this name. */
  optional?: boolean;
}

/** One tool result as the model received it. */
export interface ReceivedResult {
  step: number;
  /** The name the client gave the tool. */
  name: string;
  /** Text the model got (Anthropic: the tool_result blocks joined; Gemini: the functionResponse JSON). */
  text: string;
  isError: boolean;
}

export interface FakeModelServer {
  url: string;
  /** Tool results received, in order, deduplicated by step (a client resends the whole history). */
  results: ReceivedResult[];
  /** The tool names each client offered in its first request with tools. */
  offeredTools: string[];
  /** Paths of every request, for diagnosing a client that called something unexpected. */
  paths: string[];
  /** Script tools the client did not offer (the script stopped there). */
  missing: string[];
  close(): Promise<void>;
}

export const FINAL_TEXT = 'All Baton calls made.';

export async function startFakeModelServer(script: readonly ScriptStep[]): Promise<FakeModelServer> {
  const results = new Map<number, ReceivedResult>();
  const offeredTools: string[] = [];
  const paths: string[] = [];
  const missing: string[] = [];
  const started = performance.now();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    paths.push(`${((performance.now() - started) / 1000).toFixed(1)}s ${req.method} ${url.pathname}`);
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (url.pathname.endsWith('/v1/messages') && body) return anthropic(body, res);
    if (/:(stream)?[gG]enerateContent$/.test(url.pathname) && body) return gemini(body, url, res);
    if (url.pathname.endsWith(':countTokens')) return json(res, { totalTokens: 100 });
    if (url.pathname.endsWith('/v1/messages/count_tokens')) return json(res, { input_tokens: 100 });
    return json(res, {}, url.pathname.includes('/models') ? 200 : 404);
  };

  /** The next step to ask for, given the tool names on offer and how many results came back. */
  const nextStep = (names: string[], done: number): { index: number; step: ScriptStep; name: string } | undefined => {
    let index = 0;
    let count = 0;
    for (; index < script.length; index += 1) {
      const step = script[index] as ScriptStep;
      const name = names.find((n) => n === step.tool || n.endsWith(`__${step.tool}`) || n.endsWith(`_${step.tool}`));
      if (!name) {
        if (step.optional) continue;
        missing.push(step.tool);
        return undefined;
      }
      if (count === done) return { index, step, name };
      count += 1;
    }
    return undefined;
  };

  const anthropic = (body: AnthropicRequest, res: ServerResponse) => {
    const names = (body.tools ?? []).map((t) => t.name).filter((n): n is string => typeof n === 'string');
    if (names.length === 0) return anthropicReply(res, body, { text: 'ok' });
    if (offeredTools.length === 0) offeredTools.push(...names);
    const toolResults = (body.messages ?? [])
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool_result');
    const calls = new Map<string, string>();
    for (const m of body.messages ?? [])
      for (const b of Array.isArray(m.content) ? m.content : []) if (b.type === 'tool_use') calls.set(String(b.id), String(b.name));
    toolResults.forEach((block, i) => {
      if (results.has(i)) return;
      const text =
        typeof block.content === 'string' ? block.content : (block.content ?? []).map((c: { text?: string }) => c.text ?? '').join('\n');
      results.set(i, { step: i, name: calls.get(String(block.tool_use_id)) ?? '?', text, isError: block.is_error === true });
    });
    const next = nextStep(names, toolResults.length);
    if (!next) return anthropicReply(res, body, { text: FINAL_TEXT });
    return anthropicReply(res, body, { tool: { id: `toolu_${toolResults.length}`, name: next.name, input: next.step.args } });
  };

  const gemini = (body: GeminiRequest, url: URL, res: ServerResponse) => {
    const names = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name);
    const stream = url.pathname.endsWith(':streamGenerateContent');
    // Gemini CLI's model router asks for JSON (it retries, with back-off, on anything else).
    if (body.generationConfig?.responseMimeType === 'application/json') {
      return geminiReply(res, stream, { text: JSON.stringify({ reasoning: 'scripted test model', model_choice: 'flash' }) });
    }
    if (names.length === 0) return geminiReply(res, stream, { text: 'ok' });
    if (offeredTools.length === 0) offeredTools.push(...names);
    const responses = (body.contents ?? []).flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse);
    responses.forEach((part, i) => {
      if (results.has(i)) return;
      const response = part.functionResponse?.response ?? {};
      const text =
        typeof response.output === 'string'
          ? response.output
          : typeof response.error === 'string'
            ? response.error
            : JSON.stringify(response);
      results.set(i, { step: i, name: part.functionResponse?.name ?? '?', text, isError: 'error' in response });
    });
    const next = nextStep(names, responses.length);
    if (!next) return geminiReply(res, stream, { text: FINAL_TEXT });
    return geminiReply(res, stream, { call: { name: next.name, args: next.step.args } });
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, { error: { message: String(error) } }, 500));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get results() {
      return [...results.values()].sort((a, b) => a.step - b.step);
    },
    offeredTools,
    paths,
    missing,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire formats of two vendors, read loosely on purpose.
type Block = Record<string, any>;
interface AnthropicRequest {
  model?: string;
  stream?: boolean;
  tools?: Array<{ name?: string }>;
  messages?: Array<{ role: string; content: string | Block[] }>;
}
interface GeminiRequest {
  generationConfig?: { responseMimeType?: string };
  tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
  contents?: Array<{
    role?: string;
    parts?: Array<{ text?: string; functionCall?: Block; functionResponse?: { name: string; response?: Block } }>;
  }>;
}

function anthropicReply(
  res: ServerResponse,
  body: AnthropicRequest,
  answer: { text?: string; tool?: { id: string; name: string; input: Record<string, unknown> } },
): void {
  const model = body.model ?? 'claude-fake';
  const block = answer.tool
    ? { type: 'tool_use', id: answer.tool.id, name: answer.tool.name, input: answer.tool.input }
    : { type: 'text', text: answer.text ?? '' };
  const stopReason = answer.tool ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!body.stream) {
    json(res, {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', {
    type: 'message_start',
    message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  if (answer.tool) {
    send('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: answer.tool.id, name: answer.tool.name, input: {} },
    });
    send('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(answer.tool.input) },
    });
  } else {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answer.text ?? '' } });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

function geminiReply(
  res: ServerResponse,
  stream: boolean,
  answer: { text?: string; call?: { name: string; args: Record<string, unknown> } },
): void {
  const part = answer.call ? { functionCall: answer.call } : { text: answer.text ?? '' };
  const payload = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: 'gemini-fake',
  };
  if (!stream) {
    json(res, payload);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`data: ${JSON.stringify(payload)}\n\n`);
}

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Block | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
