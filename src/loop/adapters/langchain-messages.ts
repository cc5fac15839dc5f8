import type { ContextMessage, LoopEvent, ToolCall } from '../types.js';

/**
 * What the adapter reads of a LangChain.js v1 message (`BaseMessage` of @langchain/core): declared
 * here so Baton's types do not need the optional peer installed.
 */
export interface LangChainMessageLike {
  readonly type: string;
  readonly text: string;
  readonly id?: string | undefined;
  readonly tool_calls?: readonly { id?: string | undefined; name: string; args: Record<string, unknown> }[] | undefined;
  readonly tool_call_id?: string;
  readonly name?: string | undefined;
  readonly status?: string | undefined;
}

/** The message classes of `@langchain/core/messages` the adapter builds. */
export interface LangChainMessageClasses {
  SystemMessage: new (content: string) => object;
  HumanMessage: new (content: string) => object;
  AIMessage: new (fields: {
    content: string;
    tool_calls: { id: string; name: string; args: Record<string, unknown>; type: 'tool_call' }[];
  }) => object;
  ToolMessage: new (fields: { content: string; tool_call_id: string; name: string; status?: 'success' | 'error' }) => object;
}

/**
 * Converts LangChain messages to loop events; tool calls and results keep their ids. A tool
 * message without a name takes its call's (from `names`, which this fills). Pure but for `names`.
 */
export function fromLangChainMessages(messages: readonly LangChainMessageLike[], names: Map<string, string> = new Map()): LoopEvent[] {
  const events: LoopEvent[] = [];
  for (const m of messages) {
    if (m.type === 'system') events.push({ kind: 'system', text: m.text });
    else if (m.type === 'ai') {
      const toolCalls: ToolCall[] = (m.tool_calls ?? []).map((c, i) => ({
        id: c.id ?? `${m.id ?? 'call'}_${i}`,
        name: c.name,
        args: c.args,
      }));
      for (const c of toolCalls) names.set(c.id, c.name);
      events.push({ kind: 'assistant', text: m.text, ...(toolCalls.length ? { toolCalls } : {}) });
    } else if (m.type === 'tool') {
      const callId = m.tool_call_id ?? '';
      const text = m.status === 'error' ? `Error: ${m.text}` : m.text;
      const flag = m.status === 'error' ? { isError: true } : {};
      events.push({ kind: 'tool', callId, name: m.name ?? names.get(callId) ?? 'tool', text, ...flag });
    } else events.push({ kind: 'user', text: m.text });
  }
  return events;
}

/** Converts assembled messages (after the system message) to LangChain messages of the given classes. Pure. */
export function toLangChainMessages(messages: readonly ContextMessage[], classes: LangChainMessageClasses): object[] {
  return messages.map((m) => {
    if (m.role === 'system') return new classes.SystemMessage(m.content);
    if (m.role === 'user') return new classes.HumanMessage(m.content);
    if (m.role === 'tool')
      return new classes.ToolMessage({
        content: m.content,
        tool_call_id: m.callId,
        name: m.name,
        ...(m.isError ? { status: 'error' as const } : {}),
      });
    const calls = (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args, type: 'tool_call' as const }));
    return new classes.AIMessage({ content: m.content, tool_calls: calls });
  });
}

/** Enough of a message to notice that a conversation is not the continuation of the recorded one. */
export function langChainMessageKey(m: LangChainMessageLike): string {
  return `${m.type}:${m.id ?? ''}:${m.tool_call_id ?? ''}:${m.text.length}:${m.text.slice(0, 64)}`;
}
