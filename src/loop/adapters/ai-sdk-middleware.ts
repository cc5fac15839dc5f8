import type { LanguageModelMiddleware } from 'ai';
import type { ContextManager } from '../context-manager.js';
import { callWithLadder } from '../retry/call-with-context-retry.js';
import { type ContextAdapterOptions, checkAdapterArgs } from './check-adapter-args.js';
import { createConversationRecorder } from './create-conversation-recorder.js';
import {
  type CallOptions,
  fromLanguageModelPrompt,
  type LanguageModelPrompt,
  type PromptMessage,
  promptMessageKey,
  toLanguageModelPrompt,
} from './language-model-prompt.js';

/**
 * An AI SDK 6 language-model middleware that gives every call of the wrapped model managed
 * context and owns its retries: each call's new prompt messages are recorded in the manager, the
 * model is called with the assembled context, and a 429, 5xx, context overflow or any error the
 * SDK marks retryable is retried here with the next rung of the ladder (`retry-after` honoured).
 * When the retries run out it throws a RetryError, which the SDK does not retry: the SDK's own
 * `maxRetries` never resends a prompt. Works for generateText and streamText (a stream is retried
 * while it has not started; an error inside a started stream reaches the caller), with tools and
 * many steps. One manager (and one middleware) per conversation.
 *
 * File parts become a one-line `[file …]` note and reasoning parts are left out (the manager
 * keeps text); per-message provider options are not carried over.
 *
 * @throws BatonError('CONFIG_INVALID') at once for a bad manager or option; from a call, RetryError
 *   when every attempt failed, or a first error that is not retryable, unchanged.
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: batonContextMiddleware(manager) });
 * await generateText({ model, tools, prompt, stopWhen: stepCountIs(20) });
 */
export function batonContextMiddleware(manager: ContextManager, options: ContextAdapterOptions = {}): LanguageModelMiddleware {
  return contextMiddleware(manager, checkAdapterArgs('batonContextMiddleware', manager, options));
}

/** batonContextMiddleware with its arguments checked. */
export function contextMiddleware(manager: ContextManager, options: ContextAdapterOptions): LanguageModelMiddleware {
  const record = createConversationRecorder<PromptMessage>(manager, {
    who: 'batonContextMiddleware',
    toEvents: fromLanguageModelPrompt,
    keyOf: promptMessageKey,
  });
  // A call's new messages are recorded, then the model is called with the assembled context.
  const send = <R>(params: CallOptions, call: (prompt: LanguageModelPrompt) => PromiseLike<R>): Promise<R> => {
    record(params.prompt);
    const signal = params.abortSignal ? { signal: params.abortSignal } : {};
    return callWithLadder(manager, async (context) => call(toLanguageModelPrompt(context.messages)), { ...options, ...signal });
  };
  return {
    specificationVersion: 'v3',
    wrapGenerate: async ({ params, model }) => send(params, (prompt) => model.doGenerate({ ...params, prompt })),
    wrapStream: async ({ params, model }) => send(params, (prompt) => model.doStream({ ...params, prompt })),
  };
}
