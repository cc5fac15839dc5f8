import { describeToolCall } from '../vocabulary/index.js';
import type { ContextMessage, ToolCall } from './types.js';

/** The header line a rendered message starts with. */
export function messageHeader(message: ContextMessage): string {
  if (message.role === 'tool') return `[tool ${message.name}]`;
  return `[${message.role}]`;
}

/**
 * Renders one message as text, the form every strategy's budget is measured in: a header line,
 * then the content, then any tool call the content does not already spell out. Pure.
 */
export function renderMessage(message: ContextMessage): string {
  let text = `${messageHeader(message)}\n${message.content}`;
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      const line = renderToolCall(call);
      const command = typeof call.args.command === 'string' ? call.args.command.trim() : '';
      if (!message.content.includes(command || line)) text += `\n→ ${line}`;
    }
  }
  return text;
}

/**
 * `name {"arg":...}` with the arguments as compact JSON; when the call's key argument as the
 * vocabulary reads it does not show there (a Codex patch's paths, a heredoc's first line), it is
 * named first: `shell apply_patch src/a.py {"command":[...]}`.
 */
export function renderToolCall(call: Pick<ToolCall, 'name' | 'args'>): string {
  const args = JSON.stringify(call.args);
  const key = describeToolCall(call.name, call.args).key?.replace(/\s+/g, ' ');
  const named = key && !args.includes(key) && !args.includes(JSON.stringify(key).slice(1, -1)) ? `${call.name} ${key}` : call.name;
  return args === '{}' ? named : `${named} ${args}`;
}

/** Joins rendered messages the way the packer joins sections. */
export const MESSAGE_SEPARATOR = '\n\n';
