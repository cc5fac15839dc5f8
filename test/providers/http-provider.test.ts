import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpProvider, createProvider } from '../../src/providers/index.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
/** Responses chosen by the model name the client sends, so one real server covers every case. */
const handlers: Record<string, Handler> = {
  'ok-model': (_req, _body, res) =>
    json(res, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'served-model-x',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the server' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 },
    }),
  'rate-model': (_req, _body, res) =>
    json(
      res,
      429,
      { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
      { 'retry-after': '30' },
    ),
  'quota-model': (_req, _body, res) =>
    json(res, 429, {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    }),
  'server-error-model': (_req, _body, res) => json(res, 500, { error: { message: 'The server had an error', type: 'server_error' } }),
  'auth-model': (_req, _body, res) =>
    json(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }),
  'context-model': (_req, _body, res) =>
    json(res, 400, {
      error: {
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    }),
  'slow-model': (_req, _body, res) => {
    setTimeout(() => handlers['ok-model']!(_req, _body, res), 3_000);
  },
};
const seenAuth: string[] = [];

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

let server: Server;
let baseURL: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seenAuth.push(req.headers.authorization ?? '');
      if (req.url?.endsWith('/messages')) {
        // Anthropic's overloaded answer.
        json(res, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
        return;
      }
      const model = (JSON.parse(body) as { model: string }).model;
      (handlers[model] ?? handlers['ok-model']!)(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function provider(model: string, extra: Record<string, unknown> = {}) {
  return createHttpProvider('local', { type: 'http', baseURL, model, apiKey: 'sk-test', ...extra }, { now: () => NOW });
}
const request = { prompt: 'Say hello', cwd: '/tmp', timeoutMs: 10_000 };

describe('http provider (OpenAI-compatible, real local server)', () => {
  it('returns ok with the text, the model that answered and the token usage', async () => {
    const result = await provider('ok-model').run(request);
    expect(result.outcome).toEqual({ kind: 'ok' });
    expect(result.response).toBe('Hello from the server');
    expect(result.output).toBe('Hello from the server');
    expect(result.model).toBe('served-model-x');
    expect(result.usage).toEqual({ input: 11, output: 5, total: 16 });
    expect(seenAuth).toContain('Bearer sk-test');
  });

  it('maps 429 to rate_limited with resetAt from Retry-After', async () => {
    const result = await provider('rate-model').run(request);
    expect(result.outcome.kind).toBe('rate_limited');
    expect(result.outcome.resetAt).toBe(NOW + 30_000);
    expect(result.outcome.reason).toContain('HTTP 429');
  });

  it('maps a 429 insufficient_quota body to quota_exhausted', async () => {
    const result = await provider('quota-model').run(request);
    expect(result.outcome.kind).toBe('quota_exhausted');
  });

  it('maps 500 to overloaded', async () => {
    expect((await provider('server-error-model').run(request)).outcome.kind).toBe('overloaded');
  });

  it('maps 401 to auth_failed', async () => {
    expect((await provider('auth-model').run(request)).outcome.kind).toBe('auth_failed');
  });

  it('maps a context-length 400 to context_window', async () => {
    const result = await provider('context-model').run(request);
    expect(result.outcome.kind).toBe('context_window');
    expect(result.outcome.reason).toContain('maximum context length');
  });

  it('stops at Baton’s timeout instead of waiting for a slow server', async () => {
    const result = await provider('slow-model').run({ ...request, timeoutMs: 300 });
    expect(result.outcome.kind).toBe('timeout');
  });

  it('maps a refused connection to overloaded', async () => {
    const dead = createHttpProvider('dead', { type: 'http', baseURL: 'http://127.0.0.1:1/v1', model: 'ok-model', apiKey: 'k' });
    const result = await dead.run(request);
    expect(result.outcome.kind).toBe('overloaded');
  });

  it('reads {env: VAR} keys at run time and reports a missing one as config_error naming it', async () => {
    const config = { type: 'http' as const, baseURL, model: 'ok-model', apiKey: { env: 'BATON_TEST_KEY' } };
    const missing = await createHttpProvider('p', config, { env: {} }).run(request);
    expect(missing.outcome).toEqual({ kind: 'config_error', reason: 'environment variable BATON_TEST_KEY (apiKey) is not set' });
    const present = await createHttpProvider('p', config, { env: { BATON_TEST_KEY: 'sk-from-env' } }).run(request);
    expect(present.outcome.kind).toBe('ok');
    expect(seenAuth).toContain('Bearer sk-from-env');
  });

  it('maps Anthropic’s 529 overloaded_error to overloaded', async () => {
    const anthropic = createProvider('claude-api', { type: 'http', api: 'anthropic', baseURL, model: 'claude-x', apiKey: 'k' });
    const result = await anthropic.run(request);
    expect(result.outcome.kind).toBe('overloaded');
  });
});
