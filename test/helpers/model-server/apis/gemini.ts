import type { ServerResponse } from 'node:http';
import type { ApiAdapter, ParsedRequest } from '../api-adapter.js';
import type { OfferedTool, SeenToolCall, SeenToolResult, ViewMessage } from '../types.js';
import { type ModelReply, openSse, sendJson, textOf, usageOf, type Wire } from '../wire.js';

/** Gemini `generateContent` / `streamGenerateContent` (SSE) / `countTokens`, as Gemini CLI calls them. */
export const geminiApi: ApiAdapter = {
  api: 'gemini',
  route: (method, pathname) => {
    if (method !== 'POST') return undefined;
    if (pathname.endsWith(':countTokens')) return 'count';
    return /:(stream)?[gG]enerateContent$/.test(pathname) ? 'model' : undefined;
  },
  parse,
  reply,
  countReply: () => ({ totalTokens: 100 }),
  errorBody: (status, message) => ({ error: { code: status, message, status: errorStatus(status) } }),
};

function errorStatus(status: number): string {
  if (status === 429) return 'RESOURCE_EXHAUSTED';
  if (status === 503) return 'UNAVAILABLE';
  if (status === 400) return 'INVALID_ARGUMENT';
  if (status === 401 || status === 403) return 'PERMISSION_DENIED';
  return 'INTERNAL';
}

function resultText(response: Wire): string {
  if (typeof response.output === 'string') return response.output;
  if (typeof response.error === 'string') return response.error;
  return JSON.stringify(response);
}

function parse(body: Wire, pathname: string): ParsedRequest {
  const messages: ViewMessage[] = [];
  const toolCalls: SeenToolCall[] = [];
  const toolResults: SeenToolResult[] = [];
  let prompt = '';
  for (const content of (body.contents ?? []) as Wire[]) {
    const parts = (content.parts ?? []) as Wire[];
    const text = textOf(parts.filter((p) => typeof p.text === 'string' && p.thought !== true));
    if (text) messages.push({ role: content.role === 'model' ? 'assistant' : 'user', text });
    if (text && content.role !== 'model' && !parts.some((p) => p.functionResponse)) prompt = text;
    for (const part of parts) {
      const call = part.functionCall as Wire | undefined;
      if (call)
        toolCalls.push({ id: String(call.id ?? `${call.name}#${toolCalls.length}`), name: String(call.name), args: call.args ?? {} });
      const response = part.functionResponse as Wire | undefined;
      if (!response) continue;
      const payload = (response.response ?? {}) as Wire;
      const text = resultText(payload);
      const callId = String(response.id ?? `${response.name}#${toolResults.length}`);
      toolResults.push({ callId, name: String(response.name), text, isError: 'error' in payload });
      messages.push({ role: 'tool', text });
    }
  }
  const config = (body.generationConfig ?? {}) as Wire;
  const json = config.responseMimeType === 'application/json' ? { schema: config.responseJsonSchema ?? config.responseSchema } : undefined;
  return {
    model: decodeURIComponent(/models\/([^:/]+):/.exec(pathname)?.[1] ?? ''),
    stream: pathname.endsWith(':streamGenerateContent'),
    system: textOf(body.systemInstruction?.parts ?? body.systemInstruction),
    messages,
    prompt,
    tools: ((body.tools ?? []) as Wire[]).flatMap((t) => ((t.functionDeclarations ?? []) as Wire[]).map(declaration)),
    toolCalls,
    toolResults,
    ...(json ? { json } : {}),
  };
}

function declaration(f: Wire): OfferedTool {
  return {
    name: String(f.name),
    description: String(f.description ?? ''),
    schema: f.parametersJsonSchema ?? f.parameters,
    kind: 'function',
  };
}

function reply(res: ServerResponse, answer: ModelReply, request: ParsedRequest): void {
  const parts: Wire[] = [];
  if (answer.text !== undefined || answer.calls.length === 0) parts.push({ text: answer.text ?? '' });
  for (const call of answer.calls) parts.push({ functionCall: { name: call.name, args: call.args } });
  const payload = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usageOf(answer).input,
      candidatesTokenCount: usageOf(answer).output,
      totalTokenCount: usageOf(answer).input + usageOf(answer).output,
    },
    modelVersion: request.model || 'gemini-scripted',
  };
  if (!request.stream) {
    sendJson(res, payload);
    return;
  }
  const sse = openSse(res);
  sse.send(undefined, payload);
  sse.end();
}
