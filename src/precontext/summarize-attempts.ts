import type { Dispatch } from '../ledger/index.js';
import { HELPER_MODE } from './defaults.js';
import type { AttemptSummary } from './types.js';

/** A dispatch as read defensively: records from a shared ledger may be partial or corrupt. */
export interface DispatchView {
  attempt: number;
  provider: string;
  mode?: string;
  outcome?: string;
  result?: string;
  filesCreated: string[];
  filesUpdated: string[];
  validationErrors: string[];
}

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
 * Folds dispatches (any order) into one summary per attempt, oldest attempt first. Helper runs
 * are skipped: they verify an attempt, they are not one. Returns the corrupt-record count too.
 */
export function summarizeAttempts(dispatches: readonly unknown[]): { attempts: AttemptSummary[]; corrupt: number } {
  const views: DispatchView[] = [];
  let corrupt = 0;
  for (const raw of dispatches) {
    const view = readDispatch(raw);
    if (!view) corrupt += 1;
    else if (view.mode !== HELPER_MODE) views.push(view);
  }
  // Newest-first input (ledger order) becomes oldest-first; `seq` may be absent on corrupt rows.
  views.reverse();
  const byAttempt = new Map<number, AttemptSummary>();
  for (const view of views) {
    let summary = byAttempt.get(view.attempt);
    if (!summary) {
      summary = { attempt: view.attempt, providers: [], filesCreated: [], filesUpdated: [], validationErrors: [] };
      byAttempt.set(view.attempt, summary);
    }
    summary.providers.push(view.provider);
    addUnique(summary.filesCreated, view.filesCreated);
    addUnique(summary.filesUpdated, view.filesUpdated);
    if (view.validationErrors.length > 0) summary.validationErrors = view.validationErrors;
    summary.outcome = view.outcome;
    summary.result = view.result;
  }
  return { attempts: [...byAttempt.values()].sort((a, b) => a.attempt - b.attempt), corrupt };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : [];
}

function addUnique(into: string[], values: readonly string[]): void {
  for (const v of values) if (!into.includes(v)) into.push(v);
}
