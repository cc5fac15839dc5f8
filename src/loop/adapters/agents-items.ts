import type { ContextMessage, LoopEvent } from '../types.js';
import { parseArgs } from './content-text.js';

/**
 * An item of an OpenAI Agents JS model request (`AgentInputItem` of @openai/agents): declared
 * loosely here so Baton's types do not need the optional peer installed.
 */
export type AgentsInputItem = Readonly<Record<string, unknown>>;

type Part = { type?: unknown; text?: unknown; refusal?: unknown; filename?: unknown };

/**
 * Converts Agents JS input items to loop events: messages by role, `function_call` items as the
 * tool calls of the assistant turn they follow (ids kept), `function_call_result` items as tool
 * results. Reasoning items are left out. Pure.
 */
export function fromAgentsItems(items: string | readonly AgentsInputItem[]): LoopEvent[] {
  if (typeof items === 'string') return [{ kind: 'user', text: items }];
  const events: LoopEvent[] = [];
  for (const item of items) {
    if (item.type === 'function_call') {
      const call = { id: String(item.callId), name: String(item.name), args: parseArgs(item.arguments) };
      const last = events.at(-1);
      if (last?.kind === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else events.push({ kind: 'assistant', text: '', toolCalls: [call] });
    } else if (item.type === 'function_call_result') {
      events.push({ kind: 'tool', callId: String(item.callId), name: String(item.name), text: outputText(item.output) });
    } else if (item.role === 'system') events.push({ kind: 'system', text: contentText(item.content) });
    else if (item.role === 'user') events.push({ kind: 'user', text: contentText(item.content) });
    else if (item.role === 'assistant') events.push({ kind: 'assistant', text: contentText(item.content) });
  }
  return events;
}

/** Converts assembled messages (after the system message) to Agents JS input items. Pure. */
export function toAgentsItems(messages: readonly ContextMessage[]): AgentsInputItem[] {
  return messages.flatMap((m): AgentsInputItem[] => {
    if (m.role === 'system') return [{ role: 'system', content: m.content }];
    if (m.role === 'user') return [{ role: 'user', content: m.content }];
    if (m.role === 'tool') {
      return [
        { type: 'function_call_result', callId: m.callId, name: m.name, status: 'completed', output: { type: 'text', text: m.content } },
      ];
    }
    const text = m.content ? [{ role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: m.content }] }] : [];
    const calls = (m.toolCalls ?? []).map((c) => ({
      type: 'function_call',
      callId: c.id,
      name: c.name,
      arguments: JSON.stringify(c.args),
      status: 'completed',
    }));
    return [...text, ...calls];
  });
}

/** Enough of an item to notice that an input is not the continuation of the recorded one. */
export function agentsItemKey(item: AgentsInputItem): string {
  const text = typeof item.content === 'string' ? item.content : JSON.stringify(item.content ?? item.output ?? item.arguments ?? '');
  return `${String(item.type ?? item.role)}:${String(item.callId ?? '')}:${text.slice(0, 64)}`;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Part[])
    .map((p) => {
      if (typeof p.text === 'string') return p.text;
      if (typeof p.refusal === 'string') return p.refusal;
      return `[${String(p.type ?? 'part')}${typeof p.filename === 'string' ? ` ${p.filename}` : ''} not shown]`;
    })
    .join('\n');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return contentText(output);
  if (output && typeof output === 'object') return contentText([output]);
  return String(output ?? '');
}
