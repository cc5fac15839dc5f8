import type { LanguageModel, ModelMessage, PrepareStepFunction, Tool, ToolSet } from 'ai';
import * as z from 'zod';
import { BatonError } from '../../errors/index.js';
import type { ContextManager } from '../context-manager.js';
import type { ContextMessage, LoopEvent } from '../types.js';
import { contextMiddleware } from './ai-sdk-middleware.js';
import { asArgs } from './content-text.js';
import { type ContextAdapterOptions, checkAdapterArgs } from './check-adapter-args.js';

/** Converts AI SDK model messages to loop events; an `error-text`, `error-json` or denied result is a failed one. Pure. */
export function fromModelMessages(messages: readonly ModelMessage[]): LoopEvent[] {
  const events: LoopEvent[] = [];
  for (const m of messages) {
    if (m.role === 'system') events.push({ kind: 'system', text: m.content });
    else if (m.role === 'user') {
      const text = typeof m.content === 'string' ? m.content : m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      events.push({ kind: 'user', text });
    } else if (m.role === 'assistant') {
      const parts = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
      const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      const toolCalls = parts.flatMap((p) =>
        p.type === 'tool-call' ? [{ id: p.toolCallId, name: p.toolName, args: asArgs(p.input) }] : [],
      );
      events.push({ kind: 'assistant', text, ...(toolCalls.length ? { toolCalls } : {}) });
    } else {
      for (const p of m.content) {
        if (p.type !== 'tool-result') continue;
        const flag = isErrorOutput(p.output) ? { isError: true } : {};
        events.push({ kind: 'tool', callId: p.toolCallId, name: p.toolName, text: outputText(p.output), ...flag });
      }
    }
  }
  return events;
}

/** Converts assembled messages to AI SDK model messages; tool calls and results keep their ids. Pure. */
export function toModelMessages(messages: readonly ContextMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    if (m.role === 'system' || m.role === 'user') return { role: m.role, content: m.content };
    if (m.role === 'tool') {
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: m.callId,
            toolName: m.name,
            output: { type: m.isError ? 'error-text' : 'text', value: m.content },
          },
        ],
      };
    }
    return {
      role: 'assistant',
      content: [
        ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
        ...(m.toolCalls ?? []).map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.args })),
      ],
    };
  });
}

/**
 * A `prepareStep` for AI SDK 6 `generateText`/`streamText` that gives each step's model call
 * managed context and a smaller context on each retry: it runs the step on the step's model
 * wrapped once in `batonContextMiddleware(manager, options)`, which records the new messages,
 * sends the assembled context and owns the retries (see there). One line of set-up:
 *
 * @example
 * await generateText({ model, tools, prompt, stopWhen: stepCountIs(20), prepareStep: batonPrepareStep(manager) });
 */
export function batonPrepareStep<TOOLS extends ToolSet = ToolSet>(
  manager: ContextManager,
  options: ContextAdapterOptions = {},
): PrepareStepFunction<TOOLS> {
  const middleware = contextMiddleware(manager, checkAdapterArgs('batonPrepareStep', manager, options));
  const wrapped = new WeakMap<object, LanguageModel>();
  return async ({ model }) => {
    // The SDK hands prepareStep the model it resolved (a v3 model object).
    if (typeof model !== 'object' || model.specificationVersion !== 'v3') {
      throw new BatonError('INPUT_INVALID', 'batonPrepareStep: expected the step model as an AI SDK 6 (v3) language model object.', {
        details: { field: 'model' },
      });
    }
    let step = wrapped.get(model);
    if (!step) {
      // Loaded on first use: importing Baton does not load the AI SDK.
      const { wrapLanguageModel } = await import('ai');
      step = wrapLanguageModel({ model, middleware });
      wrapped.set(model, step);
    }
    return { model: step };
  };
}

/** An output the SDK marks as failed: `error-text`, `error-json`, or a denied execution. */
function isErrorOutput(output: unknown): boolean {
  const type = (output as { type?: unknown } | undefined)?.type;
  return type === 'error-text' || type === 'error-json' || type === 'execution-denied';
}

function outputText(output: unknown): string {
  const o = output as { type?: string; value?: unknown };
  if (typeof o?.value === 'string') return o.value;
  return JSON.stringify(o?.value ?? output);
}

/** Name of the tool that returns a masked or summarized output in full (the placeholders cite it). */
export const FETCH_RAW_TOOL = 'fetch_raw';

/**
 * The `fetch_raw` tool for an AI SDK agent: returns the full output behind a placeholder's id.
 *
 * @example
 * await generateText({ model, prompt, tools: { ...myTools, [FETCH_RAW_TOOL]: createFetchRawTool(manager) } });
 */
export function createFetchRawTool(manager: ContextManager): Tool<{ id: string }, string> {
  // What the AI SDK's `tool()` returns (it is the identity): built directly so this adapter does not
  // load the SDK at import time.
  return {
    description: 'Return the full raw output of an earlier tool call that the context shows masked or summarized.',
    inputSchema: z.object({ id: z.string().describe('The id in the placeholder, e.g. "r12"') }),
    execute: async ({ id }) => manager.fetchRaw(id) ?? `No raw output with id "${id}".`,
  };
}
