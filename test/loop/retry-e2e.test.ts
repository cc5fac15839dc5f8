import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { callWithContextRetry, createContextManager, type LoopEvent, RetryError, toModelMessages } from '../../src/loop/index.js';
import { type ChatServer, startChatServer } from './helpers/chat-server.js';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function history(turns: number): LoopEvent[] {
  const events: LoopEvent[] = [
    { kind: 'system', text: 'You are a coding agent.' },
    { kind: 'user', text: 'Make the failing test in tests/test_math.py pass.' },
  ];
  for (let t = 0; t < turns; t += 1) {
    events.push({
      kind: 'assistant',
      text: `Look at part ${t}.`,
      toolCalls: [{ id: `c${t}`, name: 'read_file', args: { path: 'src/math.py' } }],
    });
    const lines = ['[File: src/math.py (200 lines total)]'];
    for (let i = 0; i < 12; i += 1) lines.push(i === 0 ? `${t * 12 + 1}:def part_${t}(x):` : `${t * 12 + 1 + i}:    x = x * ${i}`);
    events.push({ kind: 'tool', callId: `c${t}`, name: 'read_file', text: lines.join('\n') });
  }
  return events;
}

const count = (messages: { role: string }[], role: string) => messages.filter((m) => m.role === role).length;

describe('retry with smaller context against a real local server', () => {
  it('sends a smaller context on each retry after 429 then 500, and succeeds on 200', async () => {
    server = await startChatServer([
      { status: 429, error: 'RESOURCE_EXHAUSTED: quota exceeded', headers: { 'retry-after': '0' } },
      { status: 500, error: 'INTERNAL: backend error' },
      { text: 'Fixed.' },
    ]);
    const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const manager = await createContextManager();
    manager.recordAll(history(6));
    const result = await callWithContextRetry(
      manager,
      (context) => generateText({ model, messages: toModelMessages(context.messages), maxRetries: 0, allowSystemInMessages: true }),
      { initialDelayMs: 5, jitter: 0 },
    );
    expect(result.text).toBe('Fixed.');
    const [first, second, third] = server.requests.map((r) => r.messages);
    expect(server.requests).toHaveLength(3);
    // Try 1: every turn; retry 1: the last 2 turns; retry 2: the last turn only.
    expect(count(first ?? [], 'assistant')).toBe(6);
    expect(count(second ?? [], 'assistant')).toBe(2);
    expect(count(third ?? [], 'assistant')).toBe(1);
    expect(count(third ?? [], 'tool')).toBe(1);
    expect((first?.length ?? 0) > (second?.length ?? 0) && (second?.length ?? 0) > (third?.length ?? 0)).toBe(true);
    // Retry 2 has no snippets and no verbose tool output.
    const thirdText = JSON.stringify(third);
    expect(thirdText).not.toContain('## Relevant code');
    expect(thirdText).toContain('[summary; fetch_raw');
    expect(thirdText).not.toContain('x = x * 5');
    expect(third?.[0]).toMatchObject({ role: 'system', content: 'You are a coding agent.' });
    expect(JSON.stringify(third)).toContain('Make the failing test in tests/test_math.py pass.');
    // The lowered limits applied to those retries only.
    expect(count(manager.assemble().messages, 'assistant')).toBe(6);
  });

  it('tells the user which error it was and what was tried when every attempt fails', async () => {
    server = await startChatServer([{ status: 429, error: 'RESOURCE_EXHAUSTED: quota exceeded' }]);
    const model = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test' }).chatModel('local-model');
    const manager = await createContextManager();
    manager.recordAll(history(3));
    const error = await callWithContextRetry(
      manager,
      (context) => generateText({ model, messages: toModelMessages(context.messages), maxRetries: 0, allowSystemInMessages: true }),
      { initialDelayMs: 5, jitter: 0 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryError);
    const message = (error as RetryError).message;
    expect(message).toContain('rate limit or quota exhausted 429');
    expect(message).toContain('Tried 3 times');
    expect(message).toContain('the last 2 turns with fewer code snippets');
    expect(message).toContain('the last turn only, without code snippets or verbose tool output');
    expect(server.requests).toHaveLength(3);
  });
});
