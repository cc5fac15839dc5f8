import * as z from 'zod';
import { functionOption, parseInput } from '../../util/index.js';
import type { ContextManager } from '../context-manager.js';
import { contextManagerSchema } from '../create-context-manager.js';
import { contextRetryOptionsSchema } from '../loop-option-schemas.js';
import { observeModelFailure, observeModelRetry } from '../loop-metrics.js';
import type { AssembledContext, AssembleOptions, AssembleOverrides } from '../types.js';
import { classifyModelError } from './classify-model-error.js';
import { type RetryOptions, runRetries } from './retry.js';
import { RetryError } from './retry-error.js';

/**
 * Seed 004's ladder: retry 1 keeps the last 2 turns and fewer snippets; retry 2 the last turn
 * only, no snippets and no verbose tool results; each with the category limits lowered for that
 * retry only (the manager's own plan is not touched).
 */
export const DEFAULT_RETRY_LADDER: readonly AssembleOverrides[] = [
  {},
  { keepTurns: 2, recentTurns: 2, maxSnippets: 3, shareFactor: 0.75 },
  { keepTurns: 1, recentTurns: 1, maxSnippets: 0, toolResults: 'summary', shareFactor: 0.5 },
];

/** The arguments by name, so a problem reads `callWithContextRetry: options: unknown key …`. */
const argsSchema = z.object({
  manager: contextManagerSchema,
  call: functionOption('a function (context, { attempt, signal }) => Promise'),
  options: contextRetryOptionsSchema.optional(),
});

const LADDER_WORDS = [
  'the full context',
  'the last 2 turns with fewer code snippets',
  'the last turn only, without code snippets or verbose tool output',
];

const KIND_WORDS: Record<ReturnType<typeof classifyModelError>['kind'], string> = {
  rate_limited: 'rate limit or quota exhausted',
  server_error: 'server error',
  context_overflow: "prompt longer than the model's context window",
  aborted: 'aborted',
  other: 'error',
};

/** Retry options plus what to assemble on each attempt. */
export interface ContextRetryOptions extends RetryOptions {
  /** Assembly options for the first try (budget and so on). */
  assemble?: AssembleOptions;
  /** Overrides per attempt; the last entry repeats. @default DEFAULT_RETRY_LADDER */
  ladder?: readonly AssembleOverrides[];
}

/**
 * Calls the model with managed context and, on 429/RESOURCE_EXHAUSTED, 5xx/INTERNAL/ServerError or
 * a prompt over the model's window, retries (2 retries, backoff from 1 s, Retry-After respected;
 * at once after an overflow) with a smaller context per the ladder. `call` must throw on a failed
 * request with the HTTP status on the error (`status` or `statusCode`), as the AI SDK, OpenAI SDK
 * and LangChain do; a plain `fetch` resolves on a 429, so check `response.ok` and throw.
 *
 * @throws RetryError whose message is for the user: the error, and what was tried;
 *   BatonError('CONFIG_INVALID') for a bad argument or option, before any call.
 */
export async function callWithContextRetry<T>(
  manager: ContextManager,
  call: (context: AssembledContext, info: { attempt: number; signal?: AbortSignal }) => Promise<T>,
  options: ContextRetryOptions = {},
): Promise<T> {
  const checked = parseInput(argsSchema, { manager, call, options }, { what: 'callWithContextRetry' });
  return callWithLadder(manager, call, checked.options ?? {});
}

/** callWithContextRetry with its arguments already checked (the framework adapters). */
export async function callWithLadder<T>(
  manager: ContextManager,
  call: (context: AssembledContext, info: { attempt: number; signal?: AbortSignal }) => Promise<T>,
  options: ContextRetryOptions,
): Promise<T> {
  const { assemble, ladder = DEFAULT_RETRY_LADDER, onRetry, delayHintMs = defaultDelayHint, ...retryOptions } = options;
  try {
    return await runRetries(
      (info) => {
        const step = ladder[Math.min(info.attempt, ladder.length - 1)] ?? {};
        return call(manager.assemble({ ...assemble, ...step }), info);
      },
      {
        ...retryOptions,
        delayHintMs,
        onRetry: (info) => {
          observeModelRetry(info.error, info.attempt);
          onRetry?.(info);
        },
      },
    );
  } catch (error) {
    if (!(error instanceof RetryError)) {
      observeModelFailure(error);
      throw error;
    }
    observeModelFailure(error.lastError);
    throw new RetryError(error.reason, error.errors, userMessage(error, ladder.length));
  }
}

/** The server's Retry-After; none after a context overflow, where the smaller prompt is the remedy. */
function defaultDelayHint(error: unknown): number | undefined {
  const info = classifyModelError(error);
  return info.kind === 'context_overflow' ? 0 : info.retryAfterMs;
}

/** The message shown when every attempt failed: the error, and each context that was tried. */
function userMessage(error: RetryError, ladderLength: number): string {
  const info = classifyModelError(error.lastError);
  const what = KIND_WORDS[info.kind];
  const status = info.status !== undefined ? ` ${info.status}` : '';
  const tried = error.errors.map((_, i) => `attempt ${i + 1}: ${LADDER_WORDS[Math.min(i, ladderLength - 1, LADDER_WORDS.length - 1)]}`);
  return `The model call failed (${what}${status}: ${info.message.slice(0, 200)}). Tried ${error.errors.length} times with a shrinking context (${tried.join('; ')}). Wait a moment and try again, or switch provider.`;
}
