import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { batonPrepareStep, createContextManager, createFetchRawTool } from '../../src/loop/index.js';
import { countTokens } from '../../src/tokens/index.js';
import { type ChatServer, startChatServer } from './helpers/chat-server.js';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bigFile = (name: string) =>
  Array.from({ length: 120 }, (_, i) => (i % 20 === 0 ? `def ${name}_${i}(x):` : `    x = x + ${i}  # ${name} detail line ${i}`)).join(
    '\n',
  );

describe('AI SDK 6 adapter (prepareStep) against a real local server', () => {
  it('gives a tool-calling agent managed context with one line of set-up', async () => {
    server = await startChatServer([
      { toolCalls: [{ id: 'call_a', name: 'read_file', args: { path: 'alpha.py' } }] },
      { toolCalls: [{ id: 'call_b', name: 'read_file', args: { path: 'beta.py' } }] },
      { toolCalls: [{ id: 'call_c', name: 'read_file', args: { path: 'gamma.py' } }] },
      { toolCalls: [{ id: 'call_d', name: 'read_file', args: { path: 'delta.py' } }] },
      { text: 'done' },
    ]);
    const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const manager = await createContextManager({ limitTokens: 6000, reserveTokens: 1000, recentTurns: 1, compactEveryTurns: 0 });
    const result = await generateText({
      model,
      system: 'You are a coding agent.',
      prompt: 'Find where x overflows in the four modules.',
      tools: {
        read_file: tool({
          description: 'Read a file',
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => bigFile(path.replace('.py', '')),
        }),
      },
      stopWhen: stepCountIs(6),
      prepareStep: batonPrepareStep(manager),
    });
    expect(result.text).toBe('done');
    expect(server.requests).toHaveLength(5);
    for (const request of server.requests) {
      // Every tool result follows the assistant message that called it.
      const called = new Set<string>();
      for (const m of request.messages) {
        if (m.role === 'assistant') for (const c of m.tool_calls ?? []) called.add(c.id);
        if (m.role === 'tool') expect(called.has(m.tool_call_id as string)).toBe(true);
      }
      expect(countTokens(JSON.stringify(request.messages))).toBeLessThan(5000 + 1500);
    }
    const last = server.requests.at(-1)?.messages ?? [];
    const text = JSON.stringify(last);
    expect(text).toContain('Find where x overflows in the four modules.');
    expect(text).toContain('## Loop state');
    // The oldest output is no longer verbatim; the newest one still is (head and tail at least).
    expect(text).not.toContain('alpha detail line 101');
    expect(text).toContain('fetch_raw');
    expect(text).toContain('def delta_0(x):');
    expect(text).toContain('# delta detail line 119');
    expect(manager.turnCount).toBe(4);
  });

  it('lets the agent fetch a masked output back with the fetch_raw tool', async () => {
    server = await startChatServer([
      { toolCalls: [{ id: 'call_a', name: 'read_file', args: { path: 'alpha.py' } }] },
      { toolCalls: [{ id: 'call_b', name: 'read_file', args: { path: 'beta.py' } }] },
      { toolCalls: [{ id: 'call_r', name: 'fetch_raw', args: { id: 'r1' } }] },
      { text: 'done' },
    ]);
    const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const manager = await createContextManager({ limitTokens: 6000, reserveTokens: 1000, recentTurns: 1, compactEveryTurns: 0 });
    await generateText({
      model,
      prompt: 'Compare the modules.',
      tools: {
        read_file: tool({
          description: 'Read a file',
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => bigFile(path.replace('.py', '')),
        }),
        fetch_raw: createFetchRawTool(manager),
      },
      stopWhen: stepCountIs(5),
      prepareStep: batonPrepareStep(manager),
    });
    const third = JSON.stringify(server.requests[2]?.messages);
    expect(third).toContain('fetch_raw(\\"r1\\")');
    const fetched = server.requests[3]?.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_r');
    expect(String(fetched?.content)).toContain('alpha detail line 101');
  });
});
