import { APICallError, LoadAPIKeyError } from '@ai-sdk/provider';
import { errorMessage } from '../../errors/index.js';
import type { Outcome } from '../types.js';
import { parseEpochOrDate, parseResetAt } from './parse-reset-at.js';

const CONTEXT_LENGTH = /context[ _-]?length|maximum context|too many tokens|context_length_exceeded|prompt is too long|context window/i;
const QUOTA = /insufficient_quota|exceeded your current quota|billing|credit balance/i;
/** Google answers a bad key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID), not 401. */
const BAD_KEY = /API key not valid|API_KEY_INVALID|invalid[ _-]?api[ _-]?key|invalid x-api-key/i;

/**
 * Maps an error thrown by an AI SDK call to an outcome: 429 rate_limited (Retry-After gives
 * resetAt), 402 or an insufficient-quota body quota_exhausted, 401/403 (or a 400 naming a bad API
 * key, as Google answers) auth_failed, a 400 about
 * context length context_window, 5xx/529/overloaded and network failures overloaded.
 */
export function classifyHttpError(error: unknown, now: number): Outcome {
  const cause = isRetryError(error) ? error.lastError : error;
  if (LoadAPIKeyError.isInstance(cause)) return { kind: 'config_error', reason: oneLine(cause.message) };
  if (!APICallError.isInstance(cause)) return { kind: 'overloaded', reason: `request failed: ${oneLine(errorMessage(cause))}` };
  const status = cause.statusCode;
  const body = `${cause.message}\n${cause.responseBody ?? ''}`;
  const reason = status === undefined ? oneLine(cause.message) : `HTTP ${status}: ${oneLine(cause.message)}`;
  if (status === undefined) return { kind: 'overloaded', reason };
  if (status === 429 && !QUOTA.test(body)) return withResetAt({ kind: 'rate_limited', reason }, cause, body, now);
  if (status === 402 || status === 429) return withResetAt({ kind: 'quota_exhausted', reason }, cause, body, now);
  if (status === 401 || status === 403 || (status === 400 && BAD_KEY.test(body))) return { kind: 'auth_failed', reason };
  if ((status === 400 || status === 413) && CONTEXT_LENGTH.test(body)) return { kind: 'context_window', reason };
  if (status >= 500 || /overloaded/i.test(body)) return { kind: 'overloaded', reason };
  if (status === 404) return { kind: 'config_error', reason };
  return { kind: 'agent_error', reason };
}

function withResetAt(outcome: Outcome, error: APICallError, body: string, now: number): Outcome {
  const resetAt = retryAfter(error.responseHeaders ?? {}, now) ?? parseResetAt(body, now);
  return resetAt === undefined ? outcome : { ...outcome, resetAt };
}

/** retry-after-ms wins over retry-after, which is seconds or an HTTP date. */
function retryAfter(headers: Record<string, string>, now: number): number | undefined {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return now + ms;
  const value = lower['retry-after']?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return now + Math.round(Number(value) * 1_000);
  return parseEpochOrDate(value);
}

function oneLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/**
 * The AI SDK's RetryError (retries used up), recognised by its documented name: importing the class
 * would load the whole SDK (`ai`, about 80 ms) wherever providers load; the API error classes come
 * from the small @ai-sdk/provider package instead.
 */
function isRetryError(error: unknown): error is Error & { lastError: unknown } {
  return error instanceof Error && error.name === 'AI_RetryError' && 'lastError' in error;
}
