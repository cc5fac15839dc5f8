import { describe, expect, it } from 'vitest';
import {
  type ContextMessage,
  createContextManager,
  fromAnthropicMessages,
  fromLangChainMessages,
  fromLanguageModelPrompt,
  fromModelMessages,
  fromOpenAIMessages,
  toAnthropicMessages,
  toLangChainMessages,
  toLanguageModelPrompt,
  toModelMessages,
  toOpenAIMessages,
} from '../../src/loop/index.js';

const messages: ContextMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Fix the test.' },
  {
    role: 'assistant',
    content: 'Reading two files.',
    toolCalls: [
      { id: 't1', name: 'read_file', args: { path: 'a.py' } },
      { id: 't2', name: 'read_file', args: { path: 'b.py' } },
    ],
  },
  { role: 'tool', callId: 't1', name: 'read_file', content: 'A' },
  { role: 'tool', callId: 't2', name: 'read_file', content: 'B' },
  { role: 'user', content: '## Loop state\nturns so far: 1' },
];

describe('message adapters', () => {
  it('writes OpenAI chat messages with tool_calls and tool_call_id, and reads them back as events', () => {
    const openai = toOpenAIMessages(messages);
    expect(openai[2]).toEqual({
      role: 'assistant',
      content: 'Reading two files.',
      tool_calls: [
        { id: 't1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.py"}' } },
        { id: 't2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.py"}' } },
      ],
    });
    expect(openai[3]).toEqual({ role: 'tool', tool_call_id: 't1', content: 'A' });
    const events = fromOpenAIMessages(openai);
    expect(events.map((e) => e.kind)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(events[4]).toEqual({ kind: 'tool', callId: 't2', name: 'read_file', text: 'B' });
  });

  it('writes Anthropic messages: system apart, tool_result blocks right after tool_use, roles alternating', () => {
    const { system, messages: out } = toAnthropicMessages(messages);
    expect(system).toBe('Be brief.');
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out[1]?.content).toEqual([
      { type: 'text', text: 'Reading two files.' },
      { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.py' } },
      { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'b.py' } },
    ]);
    expect(out[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'A' },
      { type: 'tool_result', tool_use_id: 't2', content: 'B' },
      { type: 'text', text: '## Loop state\nturns so far: 1' },
    ]);
    const events = fromAnthropicMessages({ system, messages: out });
    expect(events.filter((e) => e.kind === 'tool')).toEqual([
      { kind: 'tool', callId: 't1', name: 'read_file', text: 'A' },
      { kind: 'tool', callId: 't2', name: 'read_file', text: 'B' },
    ]);
  });

  it('converts to and from AI SDK model messages without losing call ids', () => {
    const model = toModelMessages(messages);
    const back = fromModelMessages(model);
    expect(back[2]).toEqual({
      kind: 'assistant',
      text: 'Reading two files.',
      toolCalls: [
        { id: 't1', name: 'read_file', args: { path: 'a.py' } },
        { id: 't2', name: 'read_file', args: { path: 'b.py' } },
      ],
    });
    expect(back[3]).toEqual({ kind: 'tool', callId: 't1', name: 'read_file', text: 'A' });
  });
});

describe('error flags', () => {
  const failed: ContextMessage[] = [
    { role: 'user', content: 'Run the tests.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'b1', name: 'Bash', args: { command: 'npm test' } }] },
    { role: 'tool', callId: 'b1', name: 'Bash', content: 'Exit code 1\nnot ok 1 - adds', isError: true },
  ];

  it("keeps Anthropic's is_error both ways, and leaves a result without one unflagged", () => {
    const { messages: out } = toAnthropicMessages(failed);
    expect(out[2]?.content).toEqual([{ type: 'tool_result', tool_use_id: 'b1', content: 'Exit code 1\nnot ok 1 - adds', is_error: true }]);
    expect(fromAnthropicMessages({ messages: out }).at(-1)).toEqual({
      kind: 'tool',
      callId: 'b1',
      name: 'Bash',
      text: 'Exit code 1\nnot ok 1 - adds',
      isError: true,
    });
    const ok = fromAnthropicMessages({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'r', name: 'Read', input: { file_path: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r', content: 'x', is_error: false }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r', content: 'y' }] },
      ],
    });
    expect(ok.filter((e) => e.kind === 'tool').map((e) => (e.kind === 'tool' ? e.isError : null))).toEqual([false, undefined]);
  });

  it("reads the AI SDK's error-text, error-json and denied outputs as failed results, and writes a failed one as error-text", () => {
    const model = toModelMessages(failed);
    expect(model[2]).toMatchObject({ role: 'tool', content: [{ output: { type: 'error-text', value: 'Exit code 1\nnot ok 1 - adds' } }] });
    expect(fromModelMessages(model).at(-1)).toMatchObject({ kind: 'tool', isError: true });
    const denied = fromModelMessages([
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'x', toolName: 'Bash', output: { type: 'execution-denied', reason: 'no' } }],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'y', toolName: 'Bash', output: { type: 'text', value: 'fine' } }] },
    ]);
    expect(denied.map((e) => (e.kind === 'tool' ? e.isError : null))).toEqual([true, undefined]);
  });

  it("reads LangChain's status: 'error' as a failed result and writes it back as the ToolMessage's status", () => {
    const events = fromLangChainMessages([
      { type: 'ai', text: '', tool_calls: [{ id: 'c', name: 'bash', args: { command: 'make' } }] },
      { type: 'tool', text: 'boom', tool_call_id: 'c', status: 'error' },
      { type: 'tool', text: 'ok', tool_call_id: 'c', status: 'success' },
    ]);
    expect(events.slice(1)).toEqual([
      { kind: 'tool', callId: 'c', name: 'bash', text: 'Error: boom', isError: true },
      { kind: 'tool', callId: 'c', name: 'bash', text: 'ok' },
    ]);
    const made: unknown[] = [];
    class Recorder {
      constructor(fields: unknown) {
        made.push(fields);
      }
    }
    toLangChainMessages(failed.slice(2), { SystemMessage: Recorder, HumanMessage: Recorder, AIMessage: Recorder, ToolMessage: Recorder });
    expect(made).toEqual([{ content: 'Exit code 1\nnot ok 1 - adds', tool_call_id: 'b1', name: 'Bash', status: 'error' }]);
  });

  it("keeps the AI SDK provider prompt's error outputs both ways", () => {
    const prompt = toLanguageModelPrompt(failed);
    expect(prompt.at(-1)).toMatchObject({ role: 'tool', content: [{ output: { type: 'error-text' } }] });
    expect(fromLanguageModelPrompt(prompt).at(-1)).toMatchObject({ kind: 'tool', isError: true });
  });

  it('sends a failed result as failed in the assembled context', async () => {
    const manager = await createContextManager({ limitTokens: 8192 });
    manager.recordAll(fromAnthropicMessages({ messages: toAnthropicMessages(failed).messages }));
    const tool = manager.assemble().messages.find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ role: 'tool', callId: 'b1', isError: true });
  });
});
