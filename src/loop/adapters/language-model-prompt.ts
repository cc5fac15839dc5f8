import type { LanguageModelMiddleware } from 'ai';
import type { ContextMessage, LoopEvent, ToolCall } from '../types.js';
import { asArgs } from './content-text.js';

// `ai` re-exports the middleware type (LanguageModelV3Middleware) but not the prompt types of
// @ai-sdk/provider, which is not a dependency of this package; they are derived from it instead.
export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
/** `LanguageModelV3Prompt`: what a provider receives. */
export type LanguageModelPrompt = CallOptions['prompt'];
export type PromptMessage = LanguageModelPrompt[number];
type ToolMessage = Extract<PromptMessage, { role: 'tool' }>;
type ToolResultPart = Extract<ToolMessage['content'][number], { type: 'tool-result' }>;
type AssistantPart = Extract<PromptMessage, { role: 'assistant' }>['content'][number];

/** Converts provider-level prompt messages to loop events; tool calls and results keep their ids. Pure. */
export function fromLanguageModelPrompt(prompt: readonly PromptMessage[]): LoopEvent[] {
  const events: LoopEvent[] = [];
  for (const m of prompt) {
    if (m.role === 'system') events.push({ kind: 'system', text: m.content });
    else if (m.role === 'user') {
      events.push({
        kind: 'user',
        text: m.content.map((p) => (p.type === 'text' ? p.text : fileNote(p.filename, p.mediaType))).join('\n'),
      });
    } else if (m.role === 'assistant') {
      const text: string[] = [];
      const toolCalls: ToolCall[] = [];
      const results: LoopEvent[] = [];
      for (const p of m.content) {
        if (p.type === 'text') text.push(p.text);
        else if (p.type === 'file') text.push(fileNote(p.filename, p.mediaType));
        else if (p.type === 'tool-call') toolCalls.push({ id: p.toolCallId, name: p.toolName, args: asArgs(p.input) });
        // A provider-executed tool's result arrives inside the assistant message; it follows the call.
        else if (p.type === 'tool-result') results.push(toolEvent(p));
        else skipPart(p);
      }
      events.push({ kind: 'assistant', text: text.join('\n'), ...(toolCalls.length ? { toolCalls } : {}) }, ...results);
    } else {
      for (const p of m.content) if (p.type === 'tool-result') events.push(toolEvent(p));
    }
  }
  return events;
}

/**
 * Converts assembled messages to a provider-level prompt. Consecutive tool results share one tool
 * message, so providers that need every result of a turn in one block (Anthropic) get that. Pure.
 */
export function toLanguageModelPrompt(messages: readonly ContextMessage[]): LanguageModelPrompt {
  const prompt: LanguageModelPrompt = [];
  for (const m of messages) {
    if (m.role === 'system') prompt.push({ role: 'system', content: m.content });
    else if (m.role === 'user') prompt.push({ role: 'user', content: [{ type: 'text', text: m.content }] });
    else if (m.role === 'assistant') {
      const calls = (m.toolCalls ?? []).map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.args }));
      // An assistant message needs at least one part; an empty text is the neutral one.
      const text = m.content || calls.length === 0 ? [{ type: 'text' as const, text: m.content }] : [];
      prompt.push({ role: 'assistant', content: [...text, ...calls] });
    } else {
      const part: ToolResultPart = {
        type: 'tool-result',
        toolCallId: m.callId,
        toolName: m.name,
        output: { type: m.isError ? 'error-text' : 'text', value: m.content },
      };
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(part);
      else prompt.push({ role: 'tool', content: [part] });
    }
  }
  return prompt;
}

function toolEvent(p: ToolResultPart): LoopEvent {
  const type = p.output.type;
  const flag = type === 'error-text' || type === 'error-json' || type === 'execution-denied' ? { isError: true } : {};
  return { kind: 'tool', callId: p.toolCallId, name: p.toolName, text: outputText(p.output), ...flag };
}

function outputText(output: ToolResultPart['output']): string {
  switch (output.type) {
    case 'text':
      return output.value;
    case 'error-text':
      return `Error: ${output.value}`;
    case 'json':
      return JSON.stringify(output.value);
    case 'error-json':
      return `Error: ${JSON.stringify(output.value)}`;
    case 'execution-denied':
      return `[execution denied${output.reason ? `: ${output.reason}` : ''}]`;
    case 'content':
      return output.value
        .map((p) => {
          if (p.type === 'text') return p.text;
          const name = 'filename' in p && typeof p.filename === 'string' ? p.filename : undefined;
          return fileNote(name, 'mediaType' in p && typeof p.mediaType === 'string' ? p.mediaType : p.type);
        })
        .join('\n');
  }
}

function fileNote(filename: string | undefined, mediaType: string): string {
  return `[file ${filename ? `${filename} ` : ''}(${mediaType}) not shown]`;
}

/** Reasoning is the model's own scratch work: providers replay it (or not) themselves. */
function skipPart(_part: Exclude<AssistantPart, { type: 'text' | 'file' | 'tool-call' | 'tool-result' }>): void {}

/** Enough of a message to notice that a prompt is not the continuation of the previous one. */
export function promptMessageKey(message: PromptMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return `${message.role}:${message.content.length}:${message.content.slice(0, 64)}`;
  const first = message.content[0];
  const id = first && 'toolCallId' in first ? first.toolCallId : first && 'text' in first ? first.text.slice(0, 64) : '';
  return `${message.role}:${message.content.length}:${id}`;
}
