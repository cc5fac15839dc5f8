import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { batonContextMiddleware, batonPrepareStep, createContextManager, RetryError } from '../../src/loop/index.js';
import { type ChatServer, type ScriptedReply, startChatServer } from './helpers/chat-server.js';
import { ANSWER, expectLadder, fileText, ladderScript, recordingSleep, SYSTEM, TASK } from './helpers/ladder-script.js';

let server: ChatServer | undefined;
let warnings: unknown[][] = [];
beforeEach(() => {
  warnings = [];
  for (const method of ['warn', 'error', 'info'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      warnings.push(args);
    });
  }
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const tools = {
  read_file: tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => fileText(path) }),
};
const SCRIPT = ladderScript({ 'retry-after': '2' });
const read = (n: number): ScriptedReply => ({ toolCalls: [{ id: `call_${n}`, name: 'read_file', args: { path: `src/part_${n}.py` } }] });

function noSdkWarning(): void {
  expect(warnings.map((args) => args.map(String).join(' ')).filter((line) => /AI SDK|system message/i.test(line))).toEqual([]);
}

describe('AI SDK 6: batonContextMiddleware retries with the next rung of the ladder', () => {
  it('generateText with tools over many steps: 429 then 500 are retried smaller, retry-after honoured, no SDK resend', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const base = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager, options) });

    const result = await generateText({ model, system: SYSTEM, prompt: TASK, tools, stopWhen: stepCountIs(10) });

    expect(result.text).toBe(ANSWER);
    expect(result.steps).toHaveLength(6);
    // Eight requests: five steps, the 429, the 500 and the answer; the SDK's maxRetries (2) sent none.
    expect(server.requests).toHaveLength(8);
    expectLadder(server.requests);
    // retry-after: 2 s for the 429; the computed backoff (300 ms × 2) for the 500.
    expect(sleeps).toEqual([2000, 600]);
    noSdkWarning();
  });

  it('streamText: the stream that failed to start is retried smaller and the answer streams', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const base = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager, options) });

    const result = streamText({ model, system: SYSTEM, prompt: TASK, tools, stopWhen: stepCountIs(10) });

    expect(await result.text).toBe(ANSWER);
    expect(server.requests.every((r) => r.stream)).toBe(true);
    expect(server.requests).toHaveLength(8);
    expectLadder(server.requests);
    expect(sleeps).toEqual([2000, 600]);
    noSdkWarning();
  });

  it('prepareStep: batonPrepareStep(manager) gives the same smaller retries on an unwrapped model', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');

    const result = await generateText({
      model,
      system: SYSTEM,
      prompt: TASK,
      tools,
      stopWhen: stepCountIs(10),
      prepareStep: batonPrepareStep(manager, options),
    });

    expect(result.text).toBe(ANSWER);
    expect(server.requests).toHaveLength(8);
    expectLadder(server.requests);
    expect(sleeps).toEqual([2000, 600]);
    expect(manager.turnCount).toBe(5);
    noSdkWarning();
  });

  it('when every attempt fails, throws one RetryError naming the error and each context tried (3 requests, not 9)', async () => {
    server = await startChatServer([{ status: 503, error: 'overloaded' }]);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const base = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager, recordingSleep().options) });

    const error = await generateText({ model, system: SYSTEM, prompt: TASK }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RetryError);
    expect((error as Error).message).toContain('server error 503');
    expect((error as Error).message).toContain('the last turn only, without code snippets or verbose tool output');
    expect(server.requests).toHaveLength(3);
  });

  it('retries a context overflow at once with the smaller context', async () => {
    server = await startChatServer([
      read(1),
      read(2),
      read(3),
      { status: 400, error: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens." },
      { text: 'ok' },
    ]);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const base = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager, options) });

    const result = await generateText({ model, system: SYSTEM, prompt: TASK, tools, stopWhen: stepCountIs(10) });

    expect(result.text).toBe('ok');
    expect(sleeps).toEqual([0]);
    expect(server.requests[4]!.size.chars).toBeLessThan(server.requests[3]!.size.chars);
  });

  it('never retries an abort', async () => {
    server = await startChatServer([{ status: 429, error: 'slow down', headers: { 'retry-after': '30' } }]);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const controller = new AbortController();
    const sleep = (_ms: number, signal?: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        controller.abort();
      });
    const base = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager, { sleep }) });

    const error = await generateText({ model, prompt: TASK, abortSignal: controller.signal }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Error);
    expect(server.requests).toHaveLength(1);
  });
});
