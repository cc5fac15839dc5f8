import { BatonError } from '../../errors/index.js';
import type { ContextManager } from '../context-manager.js';
import * as z from 'zod';
import { objectWithMethods, parseInput } from '../../util/index.js';
import { callWithLadder } from '../retry/call-with-context-retry.js';
import type { AssembledContext } from '../types.js';
import { type AgentsInputItem, agentsItemKey, fromAgentsItems, toAgentsItems } from './agents-items.js';
import { type ContextAdapterOptions, checkAdapterArgs } from './check-adapter-args.js';
import { createConversationRecorder } from './create-conversation-recorder.js';

const modelSchema = objectWithMethods<AgentsModelLike>(
  ['getResponse', 'getStreamedResponse'],
  'an OpenAI Agents JS Model (new OpenAIResponsesModel(client, name), new OpenAIChatCompletionsModel(client, name))',
);

/** What the wrapper reads of an OpenAI Agents JS `ModelRequest`. */
export interface AgentsModelRequest {
  systemInstructions?: string | undefined;
  input: string | readonly AgentsInputItem[];
  previousResponseId?: string | undefined;
  conversationId?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** An OpenAI Agents JS `Model` (`OpenAIResponsesModel`, `OpenAIChatCompletionsModel`, any other), as the wrapper needs it. */
export interface AgentsModelLike {
  getResponse(request: AgentsModelRequest): Promise<unknown>;
  getStreamedResponse(request: AgentsModelRequest): AsyncIterable<unknown>;
}

/**
 * Wraps an OpenAI Agents JS `Model` so that every model call of the agent gets managed context and
 * a smaller context on each retry: the request's new input items are recorded in the manager, the
 * model gets the assembled context (system instructions included), and a 429, 5xx or context
 * overflow is retried here with the next rung of the ladder (`retry-after` honoured). A stream is
 * retried while it has not produced an event. Give the wrapped model an OpenAI client made with
 * `maxRetries: 0` (the OpenAI SDK retries twice by default, resending the same prompt). One
 * manager per conversation; a request that continues a server-side conversation
 * (`previousResponseId`, `conversationId`) is refused, since Baton then does not see the history.
 *
 * @throws BatonError('CONFIG_INVALID') at once for a bad manager, model or option; from a call,
 *   RetryError when every attempt failed, or a first error that is not retryable, unchanged.
 * @example
 * const model = batonAgentsModel(manager, new OpenAIResponsesModel(new OpenAI({ maxRetries: 0 }), 'gpt-4o'));
 * const agent = new Agent({ name: 'coder', instructions, tools, model });
 */
export function batonAgentsModel<M extends AgentsModelLike>(
  manager: ContextManager,
  model: M,
  options: ContextAdapterOptions = {},
): Pick<M, 'getResponse' | 'getStreamedResponse'> {
  parseInput(z.object({ model: modelSchema }), { model }, { what: 'batonAgentsModel' });
  const checked = checkAdapterArgs('batonAgentsModel', manager, options);
  const recorder = createConversationRecorder<AgentsInputItem>(manager, {
    who: 'batonAgentsModel',
    toEvents: fromAgentsItems,
    keyOf: agentsItemKey,
  });
  let system: string | undefined;
  const prepare = (request: AgentsModelRequest) => {
    if (request.previousResponseId !== undefined || request.conversationId !== undefined) {
      throw new BatonError(
        'INPUT_INVALID',
        'batonAgentsModel: the run continues a server-side conversation (previousResponseId or conversationId), so Baton does not see its history; run without them and let the ContextManager keep the conversation.',
        { details: { field: request.previousResponseId !== undefined ? 'previousResponseId' : 'conversationId' } },
      );
    }
    if (request.systemInstructions && request.systemInstructions !== system)
      manager.record({ kind: 'system', text: request.systemInstructions });
    system = request.systemInstructions || system;
    recorder(typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input);
    return (context: AssembledContext): AgentsModelRequest => {
      const [first, ...rest] = context.messages;
      if (first?.role !== 'system') return { ...request, input: toAgentsItems(context.messages) };
      return { ...request, systemInstructions: first.content, input: toAgentsItems(rest) };
    };
  };
  const retryOptions = (request: AgentsModelRequest) => ({ ...checked, ...(request.signal ? { signal: request.signal } : {}) });
  const wrapper: AgentsModelLike = {
    getResponse: async (request) => {
      const build = prepare(request);
      return callWithLadder(manager, async (context) => model.getResponse(build(context)), retryOptions(request));
    },
    getStreamedResponse: (request) => streamWithRetry(manager, model, prepare(request), retryOptions(request)),
  };
  return wrapper;
}

/** A stream retried until its first event arrives; after that, events (and errors) pass through. */
async function* streamWithRetry(
  manager: ContextManager,
  model: AgentsModelLike,
  build: (context: AssembledContext) => AgentsModelRequest,
  options: ContextAdapterOptions & { signal?: AbortSignal },
): AsyncGenerator<unknown> {
  const { iterator, first } = await callWithLadder(
    manager,
    async (context) => {
      const it = model.getStreamedResponse(build(context))[Symbol.asyncIterator]();
      return { iterator: it, first: await it.next() };
    },
    options,
  );
  for (let next = first; !next.done; next = await iterator.next()) yield next.value;
}
