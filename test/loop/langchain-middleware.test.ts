import { ChatOpenAI } from '@langchain/openai';
import { createAgent, tool } from 'langchain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { batonLangChainMiddleware, createContextManager, RetryError } from '../../src/loop/index.js';
import { type ChatServer, startChatServer } from './helpers/chat-server.js';
import { ANSWER, expectLadder, fileText, ladderScript, recordingSleep, SYSTEM, TASK } from './helpers/ladder-script.js';

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

const readFile = tool(async ({ path }: { path: string }) => fileText(path), {
  name: 'read_file',
  description: 'Read a file',
  schema: z.object({ path: z.string() }),
});
const SCRIPT = ladderScript({ 'retry-after': '2' });

/** ChatOpenAI with its default retries (6): the middleware must keep it from resending. */
const chatModel = (baseURL: string, streaming = false) =>
  new ChatOpenAI({ model: 'local-model', apiKey: 'test', configuration: { baseURL }, streaming });

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

    expect(result.messages.at(-1)?.text).toBe(ANSWER);
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

    expect(streamed).toContain(ANSWER);
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
