import type { OutcomeKind } from '../ledger/index.js';
import { classifyHttpError } from '../providers/index.js';

/**
 * The outcome kind of a failed model call: Baton's timeout, else what the `http` provider makes of
 * the same AI SDK error (HTTP status, body, Retry-After; see classifyHttpError), so the panel and
 * the supervisor agree on every failure.
 */
export function classifyPanelError(error: unknown, timedOut: boolean): OutcomeKind {
  if (timedOut) return 'timeout';
  return classifyHttpError(error, Date.now()).kind;
}
