import type { LanguageModel } from 'ai';
import { errorMessage } from '../errors/index.js';
import type { OutcomeKind } from '../ledger/index.js';
import type { PanelMessage } from './build-agent-messages.js';
import { classifyHttpError } from '../providers/index.js';

export interface AgentCallRequest {
  model: LanguageModel;
  system: string;
  messages: PanelMessage[];
  maxOutputTokens: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** When given, the answer is streamed (streamText) and each text delta is passed here. */
  onToken?: (text: string) => void;
}

export interface AgentCallResult {
  ok: boolean;
  /** The answer; on failure, what streamed before it. */
  text: string;
  error?: string;
  outcome: OutcomeKind;
  usage: { input?: number; output?: number };
}

/**
 * One agent's answer through AI SDK 6 (`generateText`, or `streamText` when `onToken` is set).
 * Never throws: provider errors, timeouts and aborts come back as `ok: false` with an outcome
 * kind, because a provider error must never crash the panel. No retries: `maxRetries: 0`.
 */
export async function callAgentModel(request: AgentCallRequest): Promise<AgentCallResult> {
  // The AI SDK loads with the first answer, not with the module (about 80 ms of start-up).
  const { generateText, streamText } = await import('ai');
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const abortSignal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const base = {
    model: request.model,
    system: request.system,
    messages: request.messages,
    maxOutputTokens: request.maxOutputTokens,
    maxRetries: 0,
    abortSignal,
  };
  let text = '';
  const fail = (error: unknown): AgentCallResult => {
    const timedOut = timeout.aborted && !request.signal?.aborted;
    // Baton's timeout, else what the `http` provider makes of the same AI SDK error (HTTP status,
    // body, Retry-After), so the panel and the supervisor agree on every failure.
    const outcome = request.signal?.aborted ? 'interrupted' : timedOut ? 'timeout' : classifyHttpError(error, Date.now()).kind;
    const message = timedOut ? `timed out after ${request.timeoutMs} ms` : errorMessage(error);
    return { ok: false, text, error: message, outcome, usage: {} };
  };
  try {
    if (!request.onToken) {
      const result = await generateText(base);
      text = result.text;
      return finish(text, { input: result.usage.inputTokens, output: result.usage.outputTokens });
    }
    // streamText reports errors as stream parts, not throws; onError keeps it from logging them.
    const result = streamText({ ...base, onError: () => {} });
    let usage: AgentCallResult['usage'] = {};
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        text += part.text;
        request.onToken(part.text);
      } else if (part.type === 'error') {
        return fail(part.error);
      } else if (part.type === 'abort') {
        return fail(new Error('aborted'));
      } else if (part.type === 'finish') {
        usage = { input: part.totalUsage.inputTokens, output: part.totalUsage.outputTokens };
      }
    }
    return finish(text, usage);
  } catch (error) {
    return fail(error);
  }
}

function finish(text: string, usage: AgentCallResult['usage']): AgentCallResult {
  // An empty answer carries nothing to pass on; treat it like a failure so it is not.
  if (!text.trim()) return { ok: false, text, error: 'the model returned an empty answer', outcome: 'agent_error', usage };
  return { ok: true, text, outcome: 'ok', usage };
}
