import type { Dispatch } from '../ledger/index.js';
import { getLogger } from '../observability/index.js';
import { HELPER_MODE } from './defaults.js';
import type { PreContextBuildOptions, PreContextType } from './types.js';

/** A dispatch as read defensively: records from a shared ledger may be partial or corrupt. */
export type DispatchView = Pick<
  Dispatch,
  'attempt' | 'provider' | 'mode' | 'result' | 'filesCreated' | 'filesUpdated' | 'validationErrors'
> & {
  outcome?: string;
};

/** What one attempt did, folded from its dispatches (helper tries excluded); outcome and result are its last try's. */
export type AttemptSummary = Omit<DispatchView, 'provider' | 'mode'>;

/**
 * Reads one record into a DispatchView, or undefined when a critical field (attempt, provider)
 * is missing. Lists that are not string arrays count as empty (seed 000: safe access).
 */
export function readDispatch(raw: unknown): DispatchView | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const d = raw as Partial<Record<keyof Dispatch, unknown>>;
  if (typeof d.attempt !== 'number' || !Number.isInteger(d.attempt) || d.attempt < 1) return undefined;
  if (typeof d.provider !== 'string' || d.provider.trim() === '') return undefined;
  return {
    attempt: d.attempt,
    provider: d.provider,
    mode: typeof d.mode === 'string' ? d.mode : undefined,
    outcome: typeof d.outcome === 'string' ? d.outcome : undefined,
    result: typeof d.result === 'string' ? d.result : undefined,
    filesCreated: strings(d.filesCreated),
    filesUpdated: strings(d.filesUpdated),
    validationErrors: strings(d.validationErrors),
  };
}

/**
 * The attempts numbered below `below`, one summary each, oldest first, folded from a builder's
 * dispatches (any order). Helper runs are skipped: they verify an attempt, they are not one; a
 * corrupt record is skipped too (seed 000's safe access). Undefined, with a logged warning naming
 * `what` is missing, when there is no such attempt or `input.attempt` is not an integer.
 */
export function readAttempts(
  input: PreContextBuildOptions & { attempt: number; dispatches: readonly unknown[] },
  below: number,
  kind: PreContextType,
  what: string,
): AttemptSummary[] | undefined {
  const views: DispatchView[] = [];
  let corrupt = 0;
  for (const raw of input.dispatches) {
    const view = readDispatch(raw);
    if (!view) corrupt += 1;
    else if (view.mode !== HELPER_MODE && view.attempt < below) views.push(view);
  }
  if (!Number.isInteger(input.attempt) || views.length === 0) {
    (input.logger ?? getLogger()).warn({ kind, attempt: input.attempt, corrupt }, `pre-context skipped: no readable ${what}`);
    return undefined;
  }
  // Newest-first input (ledger order) becomes oldest-first; `seq` may be absent on corrupt rows.
  views.reverse();
  const byAttempt = new Map<number, AttemptSummary>();
  for (const view of views) {
    let summary = byAttempt.get(view.attempt);
    if (!summary) {
      summary = { attempt: view.attempt, filesCreated: [], filesUpdated: [], validationErrors: [] };
      byAttempt.set(view.attempt, summary);
    }
    addUnique(summary.filesCreated, view.filesCreated);
    addUnique(summary.filesUpdated, view.filesUpdated);
    if (view.validationErrors.length > 0) summary.validationErrors = view.validationErrors;
    summary.outcome = view.outcome;
    summary.result = view.result;
  }
  return [...byAttempt.values()].sort((a, b) => a.attempt - b.attempt);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : [];
}

function addUnique(into: string[], values: readonly string[]): void {
  for (const v of values) if (!into.includes(v)) into.push(v);
}
