import { APICallError } from 'ai';
import { errorMessage } from '../errors/index.js';
import type { OutcomeKind } from '../ledger/index.js';

/**
 * The outcome kind of a failed model call, from the HTTP status when there is one, else from
 * the message (REFERENCE.md's classification, reduced to what an HTTP LLM can say).
 */
export function classifyPanelError(error: unknown, timedOut: boolean): OutcomeKind {
  if (timedOut) return 'timeout';
  const status = APICallError.isInstance(error) ? error.statusCode : undefined;
  const text = errorMessage(error).toLowerCase();
  if (/context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long/.test(text)) return 'context_window';
  if (status === 429 || /rate limit|too many requests/.test(text)) return 'rate_limited';
  if (status === 402 || /quota|insufficient_quota|billing/.test(text)) return 'quota_exhausted';
  if (status === 401 || status === 403 || /api key|unauthori[sz]ed|authentication/.test(text)) return 'auth_failed';
  if ((status !== undefined && status >= 500) || /overloaded|econnrefused|fetch failed|socket hang up/.test(text)) return 'overloaded';
  return 'agent_error';
}
