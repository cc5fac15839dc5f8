import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpProvider } from '../../src/providers/index.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const request = { prompt: 'Say hello', cwd: '/tmp', timeoutMs: 10_000 };

/** What each API answers, chosen by the model the client asks for. */
type Reply = { status: number; body: unknown; headers?: Record<string, string> };

const anthropicReplies: Record<string, Reply> = {
  'claude-ok': {
    status: 200,
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-served-1',
      content: [{ type: 'text', text: 'Hello from Anthropic' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 4 },
    },
  },
  'claude-rate': {
    status: 429,
    body: {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    },
    headers: { 'retry-after': '20' },
  },
  'claude-auth': { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } },
  'claude-long': {
    status: 400,
    body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } },
  },
};

const googleReplies: Record<string, Reply> = {
  'gemini-ok': {
    status: 200,
    body: {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello from Gemini' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
      modelVersion: 'gemini-served-2',
    },
  },
  'gemini-exhausted': {
    status: 429,
    body: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } },
  },
  'gemini-key': {
    status: 400,
    body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } },
  },
  'gemini-internal': { status: 500, body: { error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } } },
};

const seen: { path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
let server: Server;
let baseURL: string;

function send(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify(reply.body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const path = req.url ?? '';
      seen.push({ path, headers: req.headers, body });
      if (path.endsWith('/messages')) return send(res, anthropicReplies[body.model as string] ?? { status: 404, body: {} });
      const model = /\/models\/([^:]+):generateContent/.exec(path)?.[1] ?? '';
      send(res, googleReplies[model] ?? { status: 404, body: { error: { code: 404, message: `no model ${model}`, status: 'NOT_FOUND' } } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function anthropic(model: string) {
  return createHttpProvider(
    'claude-api',
    { type: 'http', api: 'anthropic', baseURL: `${baseURL}/v1`, model, apiKey: 'sk-ant-test' },
    { now: () => NOW },
  );
}
function google(model: string) {
  return createHttpProvider(
    'gemini-api',
    { type: 'http', api: 'google', baseURL: `${baseURL}/v1beta`, model, apiKey: 'g-test' },
    { now: () => NOW },
  );
}

describe('http provider over the Anthropic Messages API (real local server)', () => {
  it('returns the text, the model that answered and the usage, sending the key as x-api-key', async () => {
    const result = await anthropic('claude-ok').run(request);
    expect(result.outcome.kind).toBe('ok');
    expect(result.output).toContain('Hello from Anthropic');
    expect(result.model).toBe('claude-served-1');
    expect(result.usage).toMatchObject({ input: 12, output: 4 });
    const sent = seen.findLast((s) => s.path.endsWith('/messages'));
    expect(sent?.headers['x-api-key']).toBe('sk-ant-test');
    expect(JSON.stringify(sent?.body.messages)).toContain('Say hello');
  });

  it.each([
    ['claude-rate', 'rate_limited'],
    ['claude-auth', 'auth_failed'],
    ['claude-long', 'context_window'],
  ])('maps %s to %s', async (model, kind) => {
    const result = await anthropic(model).run(request);
    expect(result.outcome.kind).toBe(kind);
  });

  it('takes the reset time from Retry-After', async () => {
    const result = await anthropic('claude-rate').run(request);
    expect(result.outcome.resetAt).toBe(NOW + 20_000);
  });
});

describe('http provider over the Google Gemini API (real local server)', () => {
  it('returns the text, the model that ran and the usage, sending the key in x-goog-api-key', async () => {
    const result = await google('gemini-ok').run(request);
    expect(result.outcome.kind).toBe('ok');
    expect(result.output).toContain('Hello from Gemini');
    // The model that ran, from modelVersion: the SDK alone would report the requested id.
    expect(result.model).toBe('gemini-served-2');
    expect(result.usage).toMatchObject({ input: 9, output: 3 });
    const sent = seen.findLast((s) => s.path.includes(':generateContent'));
    expect(sent?.path).toContain('/models/gemini-ok:generateContent');
    expect(sent?.headers['x-goog-api-key']).toBe('g-test');
  });

  it.each([
    ['gemini-exhausted', 'rate_limited'],
    ['gemini-key', 'auth_failed'],
    ['gemini-internal', 'overloaded'],
  ])('maps %s to %s', async (model, kind) => {
    const result = await google(model).run(request);
    expect(result.outcome.kind).toBe(kind);
  });
});
