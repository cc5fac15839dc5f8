import type { ContextMessage, LoopEvent } from '../types.js';
import { contentText, parseArgs } from './content-text.js';

/** An OpenAI chat-completions message (the subset Baton reads and writes). */
export type OpenAIChatMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | { type: string; text?: string }[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Converts assembled messages to OpenAI chat messages; tool calls keep their ids. Pure. */
export function toOpenAIMessages(messages: readonly ContextMessage[]): OpenAIChatMessage[] {
  return messages.map((m): OpenAIChatMessage => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.callId, content: m.content };
    if (m.role !== 'assistant') return { role: m.role, content: m.content };
    const calls = m.toolCalls ?? [];
    return {
      role: 'assistant',
      content: m.content.length > 0 ? m.content : null,
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: JSON.stringify(c.args) },
            })),
          }
        : {}),
    };
  });
}

/** Reads OpenAI chat messages as loop events (tool results are named after their call). Pure. */
export function fromOpenAIMessages(messages: readonly OpenAIChatMessage[]): LoopEvent[] {
  const names = new Map<string, string>();
  const events: LoopEvent[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') events.push({ kind: 'system', text: m.content });
    else if (m.role === 'user') events.push({ kind: 'user', text: contentText(m.content) });
    else if (m.role === 'assistant') {
      const toolCalls = (m.tool_calls ?? []).map((c) => {
        names.set(c.id, c.function.name);
        return { id: c.id, name: c.function.name, args: parseArgs(c.function.arguments) };
      });
      events.push({ kind: 'assistant', text: m.content ?? '', ...(toolCalls.length ? { toolCalls } : {}) });
    } else if (m.role === 'tool') {
      events.push({ kind: 'tool', callId: m.tool_call_id, name: names.get(m.tool_call_id) ?? 'tool', text: m.content });
    }
  }
  return events;
}
