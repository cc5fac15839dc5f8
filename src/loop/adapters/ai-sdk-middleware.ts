import type { LanguageModelMiddleware } from 'ai';
import { BatonError } from '../../errors/index.js';
import type { ContextManager } from '../context-manager.js';
import type { AssembleOptions, ContextMessage, LoopEvent, ToolCall } from '../types.js';

// `ai` re-exports the middleware type (LanguageModelV3Middleware) but not the prompt types of
// @ai-sdk/provider, which is not a dependency of this package; they are derived from it instead.
type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
/** `LanguageModelV3Prompt`: what a provider receives. */
export type LanguageModelPrompt = CallOptions['prompt'];
type PromptMessage = LanguageModelPrompt[number];
type ToolMessage = Extract<PromptMessage, { role: 'tool' }>;
type ToolResultPart = Extract<ToolMessage['content'][number], { type: 'tool-result' }>;
type AssistantPart = Extract<PromptMessage, { role: 'assistant' }>['content'][number];

/**
 * An AI SDK 6 language-model middleware that gives every call of the wrapped model managed
 * context: each call's new prompt messages are recorded in the manager and the prompt is replaced
 * by the assembled context. Works for generateText and streamText, with tools and many steps,
 * and for anything else that calls the model. One manager (and one middleware) per conversation:
 * a prompt that does not extend the previous one is an error.
 *
 * File parts become a one-line `[file …]` note and reasoning parts are left out (the manager
 * keeps text); per-message provider options are not carried over.
 *
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: batonContextMiddleware(manager) });
 * await generateText({ model, tools, prompt, stopWhen: stepCountIs(20) });
 */
export function batonContextMiddleware(manager: ContextManager, options: AssembleOptions = {}): LanguageModelMiddleware {
  let seen = 0;
  let lastKey = '';
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const prompt = params.prompt;
      // The SDK sends the whole conversation on each call (each step, each of its own retries);
      // only the messages after the ones already recorded are new.
      if (seen > 0 && (prompt.length < seen || messageKey(prompt[seen - 1]) !== lastKey)) {
        throw new BatonError(
          'INPUT_INVALID',
          `batonContextMiddleware: the prompt (${prompt.length} messages) does not continue the conversation this ContextManager recorded (${seen} messages); create one manager and one middleware per conversation.`,
          { details: { field: 'params.prompt', recorded: seen, received: prompt.length } },
        );
      }
      manager.recordAll(fromLanguageModelPrompt(prompt.slice(seen)));
      seen = prompt.length;
      lastKey = messageKey(prompt[seen - 1]);
      return { ...params, prompt: toLanguageModelPrompt(manager.assemble(options).messages) };
    },
  };
}

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
        output: { type: 'text', value: m.content },
      };
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(part);
      else prompt.push({ role: 'tool', content: [part] });
    }
  }
  return prompt;
}

function toolEvent(p: ToolResultPart): LoopEvent {
  return { kind: 'tool', callId: p.toolCallId, name: p.toolName, text: outputText(p.output) };
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

function asArgs(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}

/** Enough of a message to notice that a prompt is not the continuation of the previous one. */
function messageKey(message: PromptMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return `${message.role}:${message.content.length}:${message.content.slice(0, 64)}`;
  const first = message.content[0];
  const id = first && 'toolCallId' in first ? first.toolCallId : first && 'text' in first ? first.text.slice(0, 64) : '';
  return `${message.role}:${message.content.length}:${id}`;
}
