import type { PlanItem, PlanMode } from './types.js';

/** A plan call's items and how they apply, read from its arguments; undefined when it holds none. */
export interface PlanChange {
  plan: PlanItem[];
  planMode: PlanMode;
}

/**
 * Items of a list-setting plan tool: Claude `TodoWrite {todos: [{content, status, id?}]}`, Codex
 * `update_plan {plan: [{step, status}]}`, Gemini `write_todos {todos: [{description, status}]}`,
 * Copilot `update_todo {todos: "- [x] done\n- [ ] next"}` (a markdown checklist). Pure.
 */
export function planListOf(value: unknown): PlanItem[] | undefined {
  if (typeof value === 'string') return checklistItems(value);
  if (!Array.isArray(value)) return undefined;
  const items: PlanItem[] = [];
  for (const entry of value) {
    if (typeof entry === 'string') {
      items.push({ text: entry, status: 'pending' });
      continue;
    }
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    const text = firstString(e, ['content', 'step', 'description', 'text', 'title', 'subject', 'task']);
    if (!text) continue;
    const id = e.id === undefined ? undefined : String(e.id);
    items.push({ text, status: planStatus(e.status), ...(id ? { id } : {}) });
  }
  return items;
}

/** Claude `TaskCreate {subject}` adds one pending item; `TaskUpdate {taskId, status}` changes one. */
export function taskPlanChange(name: string, args: Record<string, unknown>): PlanChange | undefined {
  if (/^taskcreate$/i.test(name)) {
    const text = firstString(args, ['subject', 'description', 'title']);
    return text ? { plan: [{ text, status: planStatus(args.status) }], planMode: 'add' } : undefined;
  }
  const id = args.taskId ?? args.task_id ?? args.id;
  if (id === undefined || typeof args.status !== 'string') return undefined;
  const text = firstString(args, ['subject', 'description']) ?? '';
  return { plan: [{ text, status: planStatus(args.status), id: String(id) }], planMode: 'update' };
}

/** A status word as one of the three plan states (`done`, `[x]`, `in-progress` ... included). */
export function planStatus(value: unknown): PlanItem['status'] {
  const s = typeof value === 'string' ? value.toLowerCase().replace(/[\s-]+/g, '_') : '';
  if (/^(completed?|done|finished|x|cancelled|canceled|deleted)$/.test(s)) return 'completed';
  if (/^(in_progress|active|doing|started|running|current)$/.test(s)) return 'in_progress';
  return 'pending';
}

/**
 * The plan after one plan call: `replace` takes the new list, `add` appends (numbering items
 * without an id the way Claude numbers its tasks: 1, 2, 3 ... in order of creation), `update`
 * changes the status (and the text, when given) of the item with that id. Pure.
 */
export function applyPlan(current: readonly PlanItem[], change: PlanChange, createdId?: string): PlanItem[] {
  if (change.planMode === 'replace') return change.plan.map((i) => ({ ...i }));
  if (change.planMode === 'add') {
    return [...current, ...change.plan.map((item, k) => ({ ...item, id: item.id ?? createdId ?? String(current.length + k + 1) }))];
  }
  return current.map((item) => {
    const update = change.plan.find((u) => u.id !== undefined && u.id === item.id);
    return update ? { ...item, status: update.status, ...(update.text ? { text: update.text } : {}) } : item;
  });
}

/** The items not completed, in order. */
export function openPlanItems(items: readonly PlanItem[]): PlanItem[] {
  return items.filter((i) => i.status !== 'completed');
}

function checklistItems(text: string): PlanItem[] | undefined {
  const items: PlanItem[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[([ xX~\-/])\]\s+)?(.+?)\s*$/.exec(line);
    if (!m?.[2]) continue;
    const mark = m[1];
    const status = mark === 'x' || mark === 'X' ? 'completed' : mark === '~' || mark === '/' || mark === '-' ? 'in_progress' : 'pending';
    items.push({ text: m[2], status });
  }
  return items.length > 0 ? items : undefined;
}

function firstString(o: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const v = o[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return undefined;
}

/** The id a plan tool's result gives a new item (Claude `Task #3 created successfully: …`). Pure. */
export function createdPlanItemId(output: string): string | undefined {
  return /\bTask #(\w+) created\b/.exec(output)?.[1];
}
