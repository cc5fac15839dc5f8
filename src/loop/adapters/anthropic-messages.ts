import type { ContextMessage, LoopEvent } from '../types.js';

/** An Anthropic content block (the subset Baton reads and writes). */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | { type: 'text'; text: string }[]; is_error?: boolean };

/** An Anthropic Messages API message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/**
 * Converts assembled messages to Anthropic's shape: the system text apart, tool results as
 * `tool_result` blocks in the user turn right after the `tool_use`, and consecutive same-role
 * messages merged so roles alternate; a failed result carries `is_error: true`. Pure.
 */
export function toAnthropicMessages(messages: readonly ContextMessage[]): { system: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: { role: 'user' | 'assistant'; content: AnthropicBlock[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: AnthropicBlock[]) => {
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: [...blocks] });
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') push('user', [{ type: 'text', text: m.content }]);
    else if (m.role === 'tool')
      push('user', [{ type: 'tool_result', tool_use_id: m.callId, content: m.content, ...(m.isError ? { is_error: true } : {}) }]);
    else {
      const blocks: AnthropicBlock[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
      push('assistant', blocks);
    }
  }
  return { system: system.join('\n\n'), messages: out };
}

/** Reads an Anthropic request's system and messages as loop events; a `tool_result`'s `is_error` is kept. Pure. */
export function fromAnthropicMessages(input: { system?: string; messages: readonly AnthropicMessage[] }): LoopEvent[] {
  const events: LoopEvent[] = input.system ? [{ kind: 'system', text: input.system }] : [];
  const names = new Map<string, string>();
  for (const m of input.messages) {
    const blocks: AnthropicBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (m.role === 'assistant') {
      const text = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      const toolCalls = blocks.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, args: b.input }] : []));
      for (const c of toolCalls) names.set(c.id, c.name);
      events.push({ kind: 'assistant', text, ...(toolCalls.length ? { toolCalls } : {}) });
      continue;
    }
    for (const b of blocks) {
      if (b.type === 'tool_result') {
        const text = typeof b.content === 'string' ? b.content : b.content.map((c) => c.text).join('\n');
        const flag = typeof b.is_error === 'boolean' ? { isError: b.is_error } : {};
        events.push({ kind: 'tool', callId: b.tool_use_id, name: names.get(b.tool_use_id) ?? 'tool', text, ...flag });
      } else if (b.type === 'text') events.push({ kind: 'user', text: b.text });
    }
  }
  return events;
}
