import { normalizeWhitespace } from '../../loop/index.js';
import { applyPlan, createdPlanItemId, describeToolCall, openPlanItems, pickFailureLine, type PlanItem } from '../../vocabulary/index.js';
import type { FactEvent, FactToolCall, SessionFacts } from './types.js';

/** Characters of a request's head that make the task and newest-request facts. @default 200 */
export const FACT_HEAD_CHARS = 200;
/** Characters of a line that make an error, action or plan fact. @default 160 */
export const FACT_LINE_CHARS = 160;
/** Tool calls that make the last-actions fact. @default 3 */
export const FACT_LAST_ACTIONS = 3;

/**
 * The facts a context should hold before the model call that follows `events` (issue 36): the
 * first request's head, the files edited (by calls that did not fail), the telling line of the
 * newest failed call (pickFailureLine), the last three calls' key arguments with the first and
 * last line of their results, the open items of the newest plan, and the newest request's head.
 * One extractor for every benchmark that scores these facts (the loop's `bench context` and the
 * handoff bench). Pure.
 */
export function extractSessionFacts(events: readonly FactEvent[]): SessionFacts {
  const calls: FactToolCall[] = [];
  const requests: string[] = [];
  for (const e of events) {
    if (e.type === 'user' && e.text.trim()) requests.push(e.text);
    else if (e.type === 'tool') calls.push(e.call);
  }
  const task = requests[0] === undefined ? undefined : headFact(requestHead(requests[0]));
  const newest = requests.at(-1);
  return {
    ...(task ? { task } : {}),
    filesEdited: filesEdited(calls),
    ...newestError(calls),
    lastActions: lastActions(calls),
    openPlan: openPlan(calls),
    ...(newest === undefined ? {} : { newestRequest: headFact(requestHead(newest)) }),
  };
}

/** The part of a request that says what to do: for SWE-agent tasks the issue between `ISSUE:` and `INSTRUCTIONS:`. */
export function requestHead(text: string): string {
  return /ISSUE:\s*([\s\S]*?)(?:\n\s*INSTRUCTIONS:|$)/.exec(text)?.[1] ?? text;
}

function headFact(text: string): string {
  return normalizeWhitespace(text).slice(0, FACT_HEAD_CHARS);
}

function lineFact(text: string): string {
  return normalizeWhitespace(text).slice(0, FACT_LINE_CHARS);
}

function filesEdited(calls: readonly FactToolCall[]): string[] {
  const out = new Set<string>();
  for (const call of calls) {
    if (call.failed) continue;
    const d = describeToolCall(call.name, call.args);
    if (d.kind !== 'edit' && d.kind !== 'write') continue;
    const paths = d.paths.length > 0 ? d.paths : call.openFile ? [call.openFile] : [];
    for (const p of paths) out.add(p);
  }
  return [...out];
}

function newestError(calls: readonly FactToolCall[]): { newestError?: string } {
  for (let i = calls.length - 1; i >= 0; i -= 1) {
    const call = calls[i] as FactToolCall;
    if (!call.failed) continue;
    const line = pickFailureLine(call.output ?? '');
    return line ? { newestError: lineFact(line) } : {};
  }
  return {};
}

function lastActions(calls: readonly FactToolCall[]): string[] {
  const out: string[] = [];
  for (const call of calls.slice(-FACT_LAST_ACTIONS)) {
    const d = describeToolCall(call.name, call.args);
    out.push(lineFact(d.key ?? call.name));
    const lines = (call.output ?? '').split('\n').filter((l) => l.trim().length > 0);
    const first = lines[0];
    const last = lines.at(-1);
    if (first !== undefined) out.push(lineFact(first));
    if (last !== undefined && lines.length > 1) out.push(lineFact(last));
  }
  // A line of punctuation (`...`, `}`) is found in any context: it is no fact.
  return [...new Set(out.filter((t) => /\w{2}/.test(t)))];
}

function openPlan(calls: readonly FactToolCall[]): string[] {
  let plan: PlanItem[] = [];
  for (const call of calls) {
    const d = describeToolCall(call.name, call.args);
    if (!d.plan || !d.planMode) continue;
    plan = applyPlan(plan, { plan: d.plan, planMode: d.planMode }, createdPlanItemId(call.output ?? ''));
  }
  return openPlanItems(plan).map((i) => lineFact(i.text));
}
