import { Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { batonAgentsModel, createContextManager, RetryError } from '../../src/loop/index.js';
import { type ChatServer, startChatServer } from './helpers/chat-server.js';
import { ANSWER, expectLadder, fileText, ladderScript, recordingSleep, SYSTEM, TASK } from './helpers/ladder-script.js';

let server: ChatServer | undefined;
beforeAll(() => {
  setTracingDisabled(true);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const readFile = tool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  execute: async ({ path }) => fileText(path),
});
const SCRIPT = ladderScript({ 'retry-after-ms': '1500' });

/** The OpenAI client with its own retries off: Baton's ladder is the only retry. */
const client = (baseURL: string) => new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 });

describe('OpenAI Agents JS: batonAgentsModel', () => {
  it('Responses API: assembles every turn and retries 429 then 500 with a smaller context', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const model = batonAgentsModel(manager, new OpenAIResponsesModel(client(server.baseURL), 'local-model'), options);
    const agent = new Agent({ name: 'coder', instructions: SYSTEM, tools: [readFile], model });

    const result = await run(agent, TASK, { maxTurns: 10 });

    expect(result.finalOutput).toBe(ANSWER);
    expect(server.requests.map((r) => r.api)).toEqual(Array(8).fill('responses'));
    expectLadder(server.requests);
    // retry-after-ms: 1.5 s for the 429; the computed backoff (300 ms × 2) for the 500.
    expect(sleeps).toEqual([1500, 600]);
    expect(manager.turnCount).toBe(5);
  });

  it('streams: a stream that failed before its first event is retried smaller', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { sleeps, options } = recordingSleep();
    const model = batonAgentsModel(manager, new OpenAIResponsesModel(client(server.baseURL), 'local-model'), options);
    const agent = new Agent({ name: 'coder', instructions: SYSTEM, tools: [readFile], model });

    const stream = await run(agent, TASK, { maxTurns: 10, stream: true });
    let text = '';
    for await (const chunk of stream.toTextStream()) text += chunk;
    await stream.completed;

    expect(text).toBe(ANSWER);
    expect(server.requests.every((r) => r.stream)).toBe(true);
    expect(server.requests).toHaveLength(8);
    expectLadder(server.requests);
    expect(sleeps).toEqual([1500, 600]);
  });

  it('Chat Completions model: the same ladder', async () => {
    server = await startChatServer(SCRIPT);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const { options } = recordingSleep();
    const model = batonAgentsModel(manager, new OpenAIChatCompletionsModel(client(server.baseURL), 'local-model'), options);
    const agent = new Agent({ name: 'coder', instructions: SYSTEM, tools: [readFile], model });

    const result = await run(agent, TASK, { maxTurns: 10 });

    expect(result.finalOutput).toBe(ANSWER);
    expect(server.requests.map((r) => r.api)).toEqual(Array(8).fill('chat'));
    expectLadder(server.requests);
  });

  it('fails with one RetryError after three requests when every attempt fails', async () => {
    server = await startChatServer([{ status: 500, error: 'INTERNAL' }]);
    const manager = await createContextManager({ limitTokens: 16_000 });
    const model = batonAgentsModel(manager, new OpenAIResponsesModel(client(server.baseURL), 'local-model'), recordingSleep().options);
    const agent = new Agent({ name: 'coder', instructions: SYSTEM, model });

    const error = await run(agent, TASK).catch((e: unknown) => e);

    const retryError = error instanceof RetryError ? error : (error as Error).cause;
    expect(retryError).toBeInstanceOf(RetryError);
    expect((retryError as Error).message).toContain('server error 500');
    expect(server.requests).toHaveLength(3);
  });
});
