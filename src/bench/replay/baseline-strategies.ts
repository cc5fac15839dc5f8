import type { TokenCounter } from '../../tokens/index.js';
import { type ContextMessage, type LoopEvent, MESSAGE_SEPARATOR, renderMessage } from '../../loop/index.js';

/** Tool outputs kept by the masking baseline. @default 10 */
export const MASK_KEEP_OUTPUTS = 10;

/** A model turn with its results, or a later user message: what recency keeps or drops whole. */
interface Unit {
  blocks: string[];
  /** Index in `blocks` of each tool output, so masking can replace it. */
  toolBlocks: number[];
  toolNames: string[];
}

/** The history split the way every strategy sees it. */
export interface SplitHistory {
  system?: string;
  task?: string;
  references: string[];
  units: Unit[];
}

/** Splits events into pinned parts and units; each unit's blocks are rendered messages. Pure. */
export function splitHistory(events: readonly LoopEvent[]): SplitHistory {
  return appendHistory({ references: [], units: [] }, events);
}

/** Adds events to a split history in place (the same split as splitHistory, made step by step); returns it. */
export function appendHistory(out: SplitHistory, events: Iterable<LoopEvent>): SplitHistory {
  for (const e of events) {
    if (e.kind === 'system') out.system ??= renderMessage({ role: 'system', content: e.text });
    else if (e.kind === 'user' && e.reference) out.references.push(renderMessage({ role: 'user', content: e.text }));
    else if (e.kind === 'user' && out.task === undefined) out.task = renderMessage({ role: 'user', content: e.text });
    else if (e.kind === 'user')
      out.units.push({ blocks: [renderMessage({ role: 'user', content: e.text })], toolBlocks: [], toolNames: [] });
    else if (e.kind === 'assistant') {
      const message: ContextMessage = { role: 'assistant', content: e.text, ...(e.toolCalls?.length ? { toolCalls: e.toolCalls } : {}) };
      out.units.push({ blocks: [renderMessage(message)], toolBlocks: [], toolNames: [] });
    } else {
      let unit = out.units.at(-1);
      if (!unit) {
        unit = { blocks: [], toolBlocks: [], toolNames: [] };
        out.units.push(unit);
      }
      unit.toolBlocks.push(unit.blocks.length);
      unit.toolNames.push(e.name);
      unit.blocks.push(renderMessage({ role: 'tool', callId: e.callId, name: e.name, content: e.text }));
    }
  }
  return out;
}

/** The whole history, nothing removed. */
export function buildFull(h: SplitHistory): string {
  return join([h.system, ...h.references, h.task, ...h.units.flatMap((u) => u.blocks)]);
}

/** Replaces tool outputs older than the last `keep` with a one-line placeholder; no budget. */
export function maskOldOutputs(h: SplitHistory, keep = MASK_KEEP_OUTPUTS): { history: SplitHistory; masked: number } {
  const total = h.units.reduce((n, u) => n + u.toolBlocks.length, 0);
  let toMask = Math.max(0, total - keep);
  const masked = toMask;
  const units = h.units.map((u) => {
    if (toMask === 0 || u.toolBlocks.length === 0) return u;
    const blocks = [...u.blocks];
    u.toolBlocks.forEach((b, k) => {
      if (toMask === 0) return;
      blocks[b] = `[tool ${u.toolNames[k]}]\n[Old tool output omitted]`;
      toMask -= 1;
    });
    return { ...u, blocks };
  });
  return { history: { ...h, units }, masked };
}

/**
 * Pins the system message and the task, then adds the newest units while they fit the budget,
 * stopping at the first that does not; reference material counts as the oldest unit.
 * Returns the text and how many units were kept.
 */
export function buildRecency(
  h: SplitHistory,
  budget: number,
  counter: TokenCounter,
  cache: Map<string, number>,
): { text: string; kept: number } {
  const count = (s: string) => {
    let n = cache.get(s);
    if (n === undefined) {
      n = counter.count(s);
      cache.set(s, n);
    }
    return n;
  };
  const sep = counter.count(MESSAGE_SEPARATOR);
  const pinned = [h.system, h.task].filter((s): s is string => s !== undefined);
  let used = pinned.reduce((n, s) => n + count(s) + sep, 0);
  let kept = 0;
  for (let i = h.units.length - 1; i >= 0; i -= 1) {
    const unit = h.units[i] as Unit;
    const cost = unit.blocks.reduce((n, b) => n + count(b) + sep, 0);
    if (used + cost > budget) break;
    used += cost;
    kept += 1;
  }
  const refs: string[] = [];
  if (kept === h.units.length) {
    for (const r of h.references) {
      if (used + count(r) + sep > budget) break;
      used += count(r) + sep;
      refs.push(r);
    }
  }
  const units = h.units.slice(h.units.length - kept).flatMap((u) => u.blocks);
  return { text: join([h.system, ...refs, h.task, ...units]), kept };
}

function join(parts: (string | undefined)[]): string {
  return parts.filter((p): p is string => p !== undefined).join(MESSAGE_SEPARATOR);
}
