import { type LoopEvent, normalizeWhitespace } from '../../loop/index.js';
import { baseName } from '../facts/score-session-facts.js';
import { requestHead } from '../facts/extract-session-facts.js';
import type { Trajectory } from './types.js';

/** The benchmark's error rule (issue 5), kept apart from the manager's own error detection. */
export const FACT_ERROR_LINE = /error|exception|traceback|failed|failure|not found|cannot find symbol/i;
const GOAL_CHARS = 200;
const ERROR_CHARS = 160;
const LAST_TURNS = 3;

/** Facts a context should still hold at one step, extracted by rule from the events before it. */
export interface KeyFacts {
  goal: string;
  editedPaths: string[];
  lastError: string | undefined;
  /** The last 3 model responses and tool outputs, normalized. */
  last3: string[];
}

/** The goal fact: for SWE-agent the issue text between `ISSUE:` and `INSTRUCTIONS:`, else the task. */
export function goalFact(task: string): string {
  return normalizeWhitespace(requestHead(task)).slice(0, GOAL_CHARS);
}

/** Extracts the key facts for the build before `events[end]`. Pure. */
export function extractKeyFacts(trajectory: Trajectory, end: number): KeyFacts {
  const before = trajectory.events.slice(0, end);
  const edited = new Set<string>();
  const actionTexts: string[] = [];
  let lastError: string | undefined;
  const turns: string[][] = [];
  let openFile: string | undefined;
  for (const e of before) {
    if (e.kind === 'assistant') {
      turns.push([e.text]);
      for (const call of e.toolCalls ?? []) {
        actionTexts.push(JSON.stringify(call.args));
        for (const p of editedByCall(call.name, call.args, openFile)) edited.add(p);
      }
    } else if (e.kind === 'tool') {
      if (e.openFile) openFile = e.openFile;
      turns.at(-1)?.push(e.text);
      for (const line of e.text.split('\n')) if (FACT_ERROR_LINE.test(line)) lastError = normalizeWhitespace(line).slice(0, ERROR_CHARS);
      // The SWE-agent `edit` action edits the open file, known once its result names it.
      const call = findCall(before, e);
      if (call && /^edit\b/.test(call.name) && e.openFile) edited.add(e.openFile);
    }
  }
  for (const p of trajectory.patchPaths) {
    const base = baseName(p);
    if (actionTexts.some((t) => t.includes(base))) edited.add(p);
  }
  const last3 = turns
    .slice(-LAST_TURNS)
    .flat()
    .map(normalizeWhitespace)
    .filter((t) => t.length > 0);
  return { goal: goalFact(trajectory.task), editedPaths: [...edited], lastError: lastError || undefined, last3 };
}

function editedByCall(name: string, args: Record<string, unknown>, openFile: string | undefined): string[] {
  const command = typeof args.command === 'string' ? args.command.trim() : '';
  const path = typeof args.path === 'string' ? args.path : undefined;
  if (name === 'create' || /^create\s/.test(command)) return [path ?? command.split(/\s+/)[1] ?? ''].filter(Boolean);
  if (name === 'str_replace_editor' && /^(create|str_replace|insert)$/.test(command) && path) return [path];
  // SWE-agent's `edit` names no path: its file comes from the edit's own result (below). The file
  // open before the call can be stale: older trajectories store each step's state from before it.
  if (name === 'edit') return path ? [path] : [];
  if ((name === 'write' || name === 'edit_file') && (path ?? openFile)) return [(path ?? openFile) as string];
  return [];
}

/** Share of facts found in the context as whitespace-normalized substrings; undefined when there are none. */
export function scoreFacts(
  facts: KeyFacts,
  context: string,
): { goal?: number; edited_paths?: number; last_error?: number; last3?: number } {
  const hay = normalizeWhitespace(context);
  const share = (items: string[], found: (s: string) => boolean) =>
    items.length === 0 ? undefined : items.filter(found).length / items.length;
  const out: ReturnType<typeof scoreFacts> = {};
  if (facts.goal) out.goal = hay.includes(facts.goal) ? 1 : 0;
  const edited = share(facts.editedPaths, (p) => hay.includes(p) || hay.includes(baseName(p)));
  if (edited !== undefined) out.edited_paths = edited;
  if (facts.lastError) out.last_error = hay.includes(facts.lastError) ? 1 : 0;
  const last3 = share(facts.last3, (t) => hay.includes(t));
  if (last3 !== undefined) out.last3 = last3;
  return out;
}

function findCall(events: readonly LoopEvent[], result: Extract<LoopEvent, { kind: 'tool' }>) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (e?.kind === 'assistant') {
      const call = e.toolCalls?.find((c) => c.id === result.callId);
      if (call) return call;
    }
  }
  return undefined;
}
