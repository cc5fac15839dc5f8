import { describe, expect, it } from 'vitest';
import {
  type ContextMessage,
  fromAnthropicMessages,
  fromModelMessages,
  fromOpenAIMessages,
  toAnthropicMessages,
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
