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
      if (!message.content.includes(commandOf(call) ?? line)) text += `\n→ ${line}`;
    }
  }
  return text;
}

/** `name {"arg":...}` with the arguments as compact JSON. */
export function renderToolCall(call: Pick<ToolCall, 'name' | 'args'>): string {
  const args = JSON.stringify(call.args);
  return args === '{}' ? call.name : `${call.name} ${args}`;
}

function commandOf(call: ToolCall): string | undefined {
  const command = call.args.command;
  return typeof command === 'string' && command.trim().length > 0 ? command.trim() : undefined;
}

/** Joins rendered messages the way the packer joins sections. */
export const MESSAGE_SEPARATOR = '\n\n';
