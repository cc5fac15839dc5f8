import { normalizeWhitespace } from '../../loop/index.js';
import type { FactName, SessionFacts } from './types.js';

/** Each fact's share found in a context; a fact the session does not have is left out. */
export type FactScores = Partial<Record<FactName, number>>;

/**
 * Scores a context against the facts: each fact text is looked for as a whitespace-normalized
 * substring, as written or as it reads inside JSON (a tool call's arguments: `C:\\dir`, `\"x\"`);
 * a file counts by its path or its base name; list facts score the share found. Pure.
 */
export function scoreSessionFacts(facts: SessionFacts, context: string): FactScores {
  const hay = normalizeWhitespace(context);
  const has = (text: string) => hay.includes(text) || hay.includes(jsonInner(text));
  const share = (items: readonly string[], found: (s: string) => boolean) =>
    items.length === 0 ? undefined : items.filter(found).length / items.length;
  const out: FactScores = {};
  if (facts.task) out.task = has(facts.task) ? 1 : 0;
  const files = share(facts.filesEdited, (p) => has(p) || has(baseName(p)));
  if (files !== undefined) out.files_edited = files;
  if (facts.newestError) out.newest_error = has(facts.newestError) ? 1 : 0;
  const actions = share(facts.lastActions, has);
  if (actions !== undefined) out.last_actions = actions;
  const plan = share(facts.openPlan, has);
  if (plan !== undefined) out.open_plan = plan;
  if (facts.newestRequest) out.newest_request = has(facts.newestRequest) ? 1 : 0;
  return out;
}

/**
 * The share of a text's lines (trimmed, non-empty, at least 3 characters) found in a context: how
 * much of the system prompt or the task a policy kept (one must not win by dropping them). Pure.
 */
export function linesKept(text: string, context: string): number | undefined {
  const lines = text
    .split('\n')
    .map(normalizeWhitespace)
    .filter((l) => l.length >= 3);
  if (lines.length === 0) return undefined;
  const hay = normalizeWhitespace(context);
  return lines.filter((l) => hay.includes(l) || hay.includes(jsonInner(l))).length / lines.length;
}

/** The last segment of a POSIX or Windows path. */
export function baseName(p: string): string {
  return p.split(/[\\/]/).filter(Boolean).at(-1) ?? p;
}

function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
