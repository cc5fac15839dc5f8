import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isBatonError } from '../../src/errors/index.js';
import { batonContextMiddleware, createContextManager, fromLanguageModelPrompt, toLanguageModelPrompt } from '../../src/loop/index.js';
import { countTokens } from '../../src/tokens/index.js';
import { type ChatServer, startChatServer } from './helpers/chat-server.js';

let server: ChatServer | undefined;
let sse: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await new Promise((resolve) => (sse ? sse.close(resolve) : resolve(undefined)));
  sse = undefined;
});

type WireMessage = Omit<ChatServer['requests'][number]['messages'][number], 'tool_calls'> & {
  tool_calls?: { id: string; function?: { name: string; arguments: string } }[];
};

/** A test log far larger than the budget; its middle lines are what must disappear later. */
const bigLog = Array.from({ length: 600 }, (_, i) => `tests/test_parser.py::test_case_${i} PASSED  [parser detail ${i}]`).join('\n');
const smallFile = (name: string) => Array.from({ length: 12 }, (_, i) => `${name} line ${i}`).join('\n');
const GOAL = 'Find why the parser drops the last token and fix it.';
const BUDGET = 3000;

/** What the model reads of a request: roles, contents, tool names and arguments, in o200k tokens. */
function wireTokens(messages: readonly WireMessage[]): number {
  const text = messages.map((m) => {
    const calls = (m.tool_calls ?? []).map((c) => `${c.function?.name ?? ''} ${c.function?.arguments ?? ''}`);
    return [`[${m.role}]`, typeof m.content === 'string' ? m.content : '', ...calls].join('\n');
  });
  return countTokens(text.join('\n\n'));
}

/** Every tool result sits right after the assistant message that called it (other results of that call in between). */
function expectCallsBesideResults(messages: readonly WireMessage[]): void {
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      let j = i - 1;
      while (messages[j]?.role === 'tool') j -= 1;
      const caller = messages[j];
      expect(caller?.role).toBe('assistant');
      expect(caller?.tool_calls?.map((c) => c.id)).toContain(m.tool_call_id);
    }
    for (const call of m.tool_calls ?? []) {
      expect(messages.slice(i + 1).find((r) => r.role === 'tool' && r.tool_call_id === call.id)).toBeDefined();
    }
  });
}

const tools = {
  run_tests: tool({ description: 'Run the test suite', inputSchema: z.object({ path: z.string() }), execute: async () => bigLog }),
  read_file: tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => smallFile(path),
  }),
};

describe('AI SDK 6 middleware against a real local server', () => {
  it('replaces every step prompt of a multi-step tool loop with managed context under the budget', async () => {
    server = await startChatServer([
      { toolCalls: [{ id: 'call_tests', name: 'run_tests', args: { path: 'tests/' } }] },
      { toolCalls: [{ id: 'call_a', name: 'read_file', args: { path: 'parser.py' } }] },
      { toolCalls: [{ id: 'call_b', name: 'read_file', args: { path: 'lexer.py' } }] },
      { toolCalls: [{ id: 'call_c', name: 'read_file', args: { path: 'tokens.py' } }] },
      { text: 'done' },
    ]);
    const manager = await createContextManager({ limitTokens: BUDGET + 1000, reserveTokens: 1000, recentTurns: 1, compactEveryTurns: 0 });
    const base = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager) });
    const result = await generateText({ model, system: 'You are a coding agent.', prompt: GOAL, tools, stopWhen: stepCountIs(8) });

    expect(result.text).toBe('done');
    expect(result.steps).toHaveLength(5);
    expect(server.requests).toHaveLength(5);
    for (const { messages } of server.requests as { messages: WireMessage[] }[]) {
      expect(messages[0]).toMatchObject({ role: 'system', content: 'You are a coding agent.' });
      expect(messages.some((m) => m.role === 'user' && String(m.content).includes(GOAL))).toBe(true);
      expectCallsBesideResults(messages);
      expect(wireTokens(messages)).toBeLessThanOrEqual(BUDGET);
    }
    // The huge log was the newest output on step 2: clipped to its head and tail, not dropped.
    const second = JSON.stringify(server.requests[1]?.messages);
    expect(second).toContain('test_case_0 PASSED');
    expect(second).toContain('test_case_599 PASSED');
    expect(second).toContain('tokens omitted');
    expect(second).not.toContain('parser detail 300]');
    // By the last step it is an old output: summarized to its first and last lines (issue 36), with
    // the way to fetch it back; no line from its middle is left.
    const last = server.requests.at(-1)?.messages as WireMessage[];
    const lastText = JSON.stringify(last);
    expect(lastText).toContain('(596 more lines)');
    expect(lastText).not.toContain('test_case_300 PASSED');
    expect(lastText).toContain('fetch_raw(\\"r1\\")');
    expect(lastText).toContain('tokens.py line 11');
    expect(last.find((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.id === 'call_tests'))).toBeDefined();
    // The manager holds the raw output in full and saw every step exactly once.
    expect(manager.fetchRaw('r1')).toBe(bigLog);
    expect(manager.turnCount).toBe(4);
  });

  it('manages streamText steps the same way (stream calls go through wrapStream too)', async () => {
    const bodies: { messages: WireMessage[]; stream?: boolean }[] = [];
    sse = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (bodies.length === 1) {
          const call = { index: 0, id: 'call_s', type: 'function', function: { name: 'run_tests', arguments: '{"path":"tests/"}' } };
          res.write(chunk({ role: 'assistant', tool_calls: [call] }, null));
          res.write(chunk({}, 'tool_calls'));
        } else {
          res.write(chunk({ role: 'assistant', content: 'all ' }, null));
          res.write(chunk({ content: 'fixed' }, 'stop'));
        }
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => sse?.listen(0, '127.0.0.1', resolve));
    const { port } = sse.address() as AddressInfo;
    const manager = await createContextManager({ limitTokens: BUDGET + 1000, reserveTokens: 1000 });
    const base = createOpenAICompatible({ name: 'local', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'test' }).chatModel('m');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager) });
    const stream = streamText({ model, system: 'You are a coding agent.', prompt: GOAL, tools, stopWhen: stepCountIs(3) });
    expect(await stream.text).toBe('all fixed');
    expect(bodies.map((b) => b.stream)).toEqual([true, true]);
    const second = bodies[1]?.messages ?? [];
    expect(second[0]).toMatchObject({ role: 'system' });
    expectCallsBesideResults(second);
    expect(wireTokens(second)).toBeLessThanOrEqual(BUDGET);
    expect(JSON.stringify(second)).toContain('tokens omitted');
    expect(manager.fetchRaw('r1')).toBe(bigLog);
  });

  it('refuses a prompt that does not continue the recorded conversation, naming both lengths', async () => {
    server = await startChatServer([{ text: 'ok' }]);
    const manager = await createContextManager({ limitTokens: 8000 });
    const base = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager) });
    await generateText({
      model,
      messages: [
        { role: 'user', content: 'first task' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'more' },
      ],
    });
    const error = await generateText({ model, prompt: 'another conversation', maxRetries: 0 }).catch((e: unknown) => e);
    expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
    expect((error as Error).message).toContain(
      'the conversation (1 messages) does not continue the one this ContextManager recorded (3 messages)',
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('LanguageModelV3 prompt conversion', () => {
  it('keeps tool-call ids, reads every tool output form, and notes what it cannot carry', () => {
    const events = fromLanguageModelPrompt([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'file', data: 'AAAA', mediaType: 'image/png', filename: 'shot.png' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking...' },
          { type: 'text', text: 'checking' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'grep', input: { pattern: 'x' } },
          { type: 'tool-call', toolCallId: 't2', toolName: 'search', input: 'q', providerExecuted: true },
          { type: 'tool-result', toolCallId: 't2', toolName: 'search', output: { type: 'json', value: { hits: 2 } } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 't1', toolName: 'grep', output: { type: 'error-text', value: 'no such dir' } },
          { type: 'tool-result', toolCallId: 't3', toolName: 'rm', output: { type: 'execution-denied', reason: 'unsafe' } },
        ],
      },
    ]);
    expect(events).toEqual([
      { kind: 'system', text: 'sys' },
      { kind: 'user', text: 'look\n[file shot.png (image/png) not shown]' },
      {
        kind: 'assistant',
        text: 'checking',
        toolCalls: [
          { id: 't1', name: 'grep', args: { pattern: 'x' } },
          { id: 't2', name: 'search', args: { input: 'q' } },
        ],
      },
      { kind: 'tool', callId: 't2', name: 'search', text: '{"hits":2}' },
      { kind: 'tool', callId: 't1', name: 'grep', text: 'Error: no such dir', isError: true },
      { kind: 'tool', callId: 't3', name: 'rm', text: '[execution denied: unsafe]', isError: true },
    ]);
    const prompt = toLanguageModelPrompt([
      { role: 'system', content: 'sys' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'x', args: {} },
          { id: 'b', name: 'y', args: { n: 1 } },
        ],
      },
      { role: 'tool', callId: 'a', name: 'x', content: 'A' },
      { role: 'tool', callId: 'b', name: 'y', content: 'B' },
      { role: 'assistant', content: '' },
    ]);
    expect(prompt).toEqual([
      { role: 'system', content: 'sys' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'x', input: {} },
          { type: 'tool-call', toolCallId: 'b', toolName: 'y', input: { n: 1 } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'x', output: { type: 'text', value: 'A' } },
          { type: 'tool-result', toolCallId: 'b', toolName: 'y', output: { type: 'text', value: 'B' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
    ]);
  });
});
