import { ChatOpenAI } from '@langchain/openai';
import { createAgent, tool } from 'langchain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { batonLangChainMiddleware, type ContextAdapterOptions, createContextManager, RetryError } from '../../src/loop/index.js';
import { type ChatServer, type ScriptedReply, startChatServer } from './helpers/chat-server.js';

let server: ChatServer | undefined;
let warnings: unknown[][] = [];
beforeEach(() => {
  warnings = [];
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const fileText = (path: string) =>
  Array.from({ length: 40 }, (_, i) => `${path}:${i + 1}: value_${i} = compute_${i}(value_${i - 1})`).join('\n');
const readFile = tool(async ({ path }: { path: string }) => fileText(path), {
  name: 'read_file',
  description: 'Read a file',
  schema: z.object({ path: z.string() }),
});
const read = (n: number): ScriptedReply => ({ toolCalls: [{ id: `call_${n}`, name: 'read_file', args: { path: `src/part_${n}.py` } }] });
const SCRIPT: ScriptedReply[] = [
  read(1),
  read(2),
  read(3),
  read(4),
  read(5),
  { status: 429, error: 'RESOURCE_EXHAUSTED: rate limit', headers: { 'retry-after': '2' } },
  { status: 500, error: 'INTERNAL: backend error' },
  { text: 'The bug is in part 5.' },
];
const SYSTEM = 'You are a careful coding agent.';
const TASK = 'Find the bug in src/ and explain it.';

function recordingSleep(): { sleeps: number[]; options: ContextAdapterOptions } {
  const sleeps: number[] = [];
  return { sleeps, options: { initialDelayMs: 300, jitter: 0, sleep: async (ms) => void sleeps.push(ms) } };
}

/** ChatOpenAI with its default retries (6): the middleware must keep it from resending. */
const chatModel = (baseURL: string, streaming = false) =>
  new ChatOpenAI({ model: 'local-model', apiKey: 'test', configuration: { baseURL }, streaming });

function expectLadder(requests: ChatServer['requests']): void {
  const [failed, retry1, retry2] = requests.slice(5, 8).map((r) => r.size);
  expect(retry1!.messages).toBeLessThan(failed!.messages);
  expect(retry2!.messages).toBeLessThan(retry1!.messages);
  expect(retry1!.chars).toBeLessThan(failed!.chars);
  expect(retry2!.chars).toBeLessThan(retry1!.chars);
  const assistants = (i: number) => requests[i]!.messages.filter((m) => m.role === 'assistant').length;
  expect([assistants(5), assistants(6), assistants(7)]).toEqual([5, 2, 1]);
  for (const r of requests) {
    expect(r.messages[0]?.role).toBe('system');
    expect(JSON.stringify(r.messages[0]?.content)).toContain(SYSTEM);
    expect(JSON.stringify(r.messages)).toContain(TASK);
  }
}

describe('LangChain.js v1: batonLangChainMiddleware in createAgent', () => {
  it('assembles every model call and retries 429 then 500 with a smaller context (no resend by ChatOpenAI)', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const agent = createAgent({
      model: chatModel(server.baseURL),
      tools: [readFile],
      systemPrompt: SYSTEM,
      middleware: [await batonLangChainMiddleware(manager, options)],
    });

    const result = await agent.invoke({ messages: [{ role: 'user', content: TASK }] });

    expect(result.messages.at(-1)?.text).toBe('The bug is in part 5.');
    expect(server.requests).toHaveLength(8);
    expectLadder(server.requests);
    expect(sleeps).toEqual([2000, 600]);
    expect(manager.turnCount).toBe(5);
    expect(warnings).toEqual([]);
  });

  it('streams the answer after the same smaller retries', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const agent = createAgent({
      model: chatModel(server.baseURL, true),
      tools: [readFile],
      systemPrompt: SYSTEM,
      middleware: [await batonLangChainMiddleware(manager, options)],
    });

    let streamed = '';
    for await (const [chunk] of await agent.stream({ messages: [{ role: 'user', content: TASK }] }, { streamMode: 'messages' })) {
      if (chunk.type === 'ai') streamed += chunk.text;
    }

    expect(streamed).toContain('The bug is in part 5.');
    expect(server.requests.every((r) => r.stream)).toBe(true);
    expect(server.requests).toHaveLength(8);
    expectLadder(server.requests);
    expect(sleeps).toEqual([2000, 600]);
  });

  it('fails with one RetryError after three requests when every attempt fails', async () => {
    server = await startChatServer([{ status: 429, error: 'RESOURCE_EXHAUSTED: quota' }]);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const agent = createAgent({
      model: chatModel(server.baseURL),
      tools: [readFile],
      middleware: [await batonLangChainMiddleware(manager, recordingSleep().options)],
    });

    const error = await agent.invoke({ messages: [{ role: 'user', content: TASK }] }).catch((e: unknown) => e);

    // LangChain wraps a middleware's error in its MiddlewareError; Baton's RetryError is the cause.
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(RetryError);
    expect((cause as Error).message).toContain('rate limit or quota exhausted 429');
    expect(server.requests).toHaveLength(3);
  });
});
