import { importOptional } from '../../util/index.js';
import type { ContextManager } from '../context-manager.js';
import { callWithLadder } from '../retry/call-with-context-retry.js';
import type { ContextMessage } from '../types.js';
import { type ContextAdapterOptions, checkAdapterArgs } from './check-adapter-args.js';
import { createConversationRecorder } from './create-conversation-recorder.js';
import {
  fromLangChainMessages,
  type LangChainMessageClasses,
  type LangChainMessageLike,
  langChainMessageKey,
  toLangChainMessages,
} from './langchain-messages.js';

/**
 * A LangChain.js v1 agent middleware (`createMiddleware` of `langchain`), typed here without
 * naming langchain's types so Baton's own types do not need the optional package installed; it
 * is accepted wherever `createAgent({ middleware })` takes one.
 */
export interface LangChainContextMiddleware {
  readonly name: string;
  readonly wrapModelCall: (request: unknown, handler: unknown) => Promise<never>;
}

/** What the middleware reads of LangChain's `ModelRequest`. */
interface ModelRequestLike {
  messages: readonly LangChainMessageLike[];
  systemMessage?: { text: string };
  systemPrompt?: string;
  modelSettings?: Record<string, unknown>;
  runtime?: { signal?: AbortSignal };
}

const PACKAGES = { feature: 'batonLangChainMiddleware (LangChain.js agents)', packages: ['langchain', '@langchain/core'] };

/**
 * A `createAgent` middleware whose `wrapModelCall` gives every model call of the agent managed
 * context and owns its retries: the conversation's new messages are recorded in the manager, the
 * model gets the assembled context (system message included), and a 429, 5xx or context overflow
 * is retried here with the next rung of the ladder (`retry-after` honoured). The model's own
 * retries are turned off for these calls (the `maxRetries: 0` call option), so no prompt is sent
 * twice. One manager (and one middleware) per conversation (thread).
 *
 * Loads `langchain` and `@langchain/core` when called: a missing one is a DEPENDENCY_MISSING
 * error naming the package to install.
 *
 * @throws BatonError('CONFIG_INVALID') for a bad manager or option, DEPENDENCY_MISSING without
 *   langchain; from the agent (as the `cause` of LangChain's MiddlewareError), RetryError when every
 *   attempt failed, or a first error that is not retryable, unchanged.
 * @example
 * const agent = createAgent({ model, tools, middleware: [await batonLangChainMiddleware(manager)] });
 */
export async function batonLangChainMiddleware(
  manager: ContextManager,
  options: ContextAdapterOptions = {},
): Promise<LangChainContextMiddleware> {
  const checked = checkAdapterArgs('batonLangChainMiddleware', manager, options);
  const [{ createMiddleware }, classes] = await Promise.all([
    importOptional<{ createMiddleware: (config: object) => LangChainContextMiddleware }>('langchain', PACKAGES),
    importOptional<LangChainMessageClasses>('@langchain/core/messages', PACKAGES),
  ]);
  const names = new Map<string, string>();
  const record = createConversationRecorder<LangChainMessageLike>(manager, {
    who: 'batonLangChainMiddleware',
    toEvents: (messages) => fromLangChainMessages(messages, names),
    keyOf: langChainMessageKey,
  });
  let system: string | undefined;
  const wrapModelCall = async (request: ModelRequestLike, handler: (request: object) => Promise<unknown>) => {
    const requestSystem = request.systemMessage?.text ?? request.systemPrompt ?? '';
    if (requestSystem && requestSystem !== system) manager.record({ kind: 'system', text: requestSystem });
    system = requestSystem || system;
    record(request.messages);
    const signal = request.runtime?.signal;
    return callWithLadder(
      manager,
      (context) => {
        const [first, ...rest] = context.messages;
        const assembledSystem = first?.role === 'system' ? first.content : undefined;
        const messages: readonly ContextMessage[] = assembledSystem === undefined ? context.messages : rest;
        return handler({
          ...request,
          // The assembled system message is the request's, or the head and tail of it that fit.
          ...(assembledSystem !== undefined && assembledSystem !== requestSystem
            ? { systemMessage: new classes.SystemMessage(assembledSystem) }
            : {}),
          messages: toLangChainMessages(messages, classes),
          // Baton retries with a smaller context; the model must not resend this one.
          modelSettings: { ...request.modelSettings, maxRetries: 0 },
        });
      },
      { ...checked, ...(signal ? { signal } : {}) },
    );
  };
  return createMiddleware({ name: 'BatonContextMiddleware', wrapModelCall });
}
