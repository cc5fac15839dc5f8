import { packSections, type Section } from '../budget/index.js';
import type { ResolvedManagerOptions } from './context-manager.js';
import { DEFAULT_SAFETY_TOKENS } from './defaults.js';
import { type PlannedLevel, planTurns } from './plan-turns.js';
import { MESSAGE_SEPARATOR, messageHeader, renderMessage } from './render-message.js';
import { shrinkLarge } from './shrink-large.js';
import { rankSnippets, renderSnippet, type SnippetEntry } from './snippets/rank-snippets.js';
import type { LoopState } from './tracker/loop-state.js';
import { measure, type Rendered, renderTurn, renderTurnClipped, type Turn } from './turn.js';
import type { AssembledContext, AssembleOptions, ContextMessage } from './types.js';

/** What assembly reads from the manager. */
export interface ManagerView {
  options: ResolvedManagerOptions;
  system: string | undefined;
  goal: string | undefined;
  references: readonly string[];
  turns: readonly Turn[];
  /** Snippet candidates; costly (parses pending views), so asked for only at a compaction. */
  snippets: () => SnippetEntry[];
  state: LoopState;
  mentions: (name: string) => number;
  /** Renderings of the head sections, kept between assemblies (keyed by id and cap). */
  memo: Map<string, { source: string; rendered: Rendered }>;
}

/** One section as assembly builds it, with its messages. */
export interface Block {
  id: string;
  rendered: Rendered;
  priority: number;
  required?: boolean;
  overflow: Section['overflow'];
  minTokens?: number;
}

/**
 * What a manager keeps between assemblies at one budget, all fixed until the next compaction: the
 * turn levels, the code block, and the loop state as rendered then, with the number of turns it
 * follows (turns recorded since are appended after it, verbatim).
 */
export interface PlanState {
  levels: PlannedLevel[];
  snippets: Block | undefined;
  state: Block;
  stateAfter: number;
}

/** Characters of the task that must survive any cut (the goal's head). @default 400 */
export const GOAL_HEAD_CHARS = 400;

/**
 * Builds the prompt for the next model call and packs it with the budget module's packer.
 * Order: system first, the task (goal) never dropped, reference material, relevant code (chosen
 * at compactions), past turns oldest first (a tool call and its results form one section and are
 * never split), then the loop state, rendered at each compaction and last at that point; turns
 * recorded since are appended after it, so the whole previous prompt stays a prefix. Older turns change only at a compaction: when
 * verbatim turns pile up past `recentTurns + compactEveryTurns` or the context passes
 * `highWater`, the turns are re-planned to `lowWater` (older tool outputs masked first, then the
 * oldest turns dropped, then recent turns demoted; a single huge output keeps head and tail).
 * Between compactions new turns are appended, so the prompt prefix stays identical.
 */
export function assembleContext(
  view: ManagerView,
  options: AssembleOptions & { budget: number },
  previous: PlanState | undefined,
): { context: AssembledContext; plan: PlanState } {
  const o = view.options;
  const { budget } = options;
  const counter = o.counter;
  const factor = options.shareFactor ?? 1;
  const cap = (share: number) => Math.max(32, Math.floor(budget * share * factor));
  const sep = counter.count(MESSAGE_SEPARATOR);

  const head: Block[] = [];
  if (view.system !== undefined) {
    head.push(block('system', { role: 'system', content: view.system }, cap(o.shares.system), 'head-tail', counter, 100, true, undefined, view.memo));
  }
  if (view.goal !== undefined) {
    const goalHead = renderMessage({ role: 'user', content: view.goal.slice(0, GOAL_HEAD_CHARS) });
    const minGoal = view.memo.get(goalHead)?.rendered.tokens ?? counter.count(goalHead);
    view.memo.set(goalHead, { source: goalHead, rendered: { messages: [], text: '', tokens: minGoal } });
    const goalCap = Math.max(minGoal, cap(o.shares.goal));
    head.push(block('goal', { role: 'user', content: view.goal }, goalCap, 'trim-tail', counter, 99, true, minGoal, view.memo));
  }
  const refCap = view.references.length ? Math.floor(cap(o.shares.reference) / view.references.length) : 0;
  const refs = view.references.map((text, i) =>
    block(`reference-${i}`, { role: 'user', content: text }, refCap, 'head-tail', counter, 10, false, undefined, view.memo),
  );
  const renderState = () =>
    block('state', { role: 'user', content: `## Loop state\n${view.state.render()}` }, cap(o.shares.state), 'trim-tail', counter, 90, true);
  // Between compactions the state stays as rendered at the last one, so the prompt only grows at
  // its end: what happened since is in the verbatim turns after it.
  let state = previous?.state ?? renderState();
  const tokensOf = (blocks: Block[]) => blocks.reduce((sum, b) => sum + b.rendered.tokens + sep, 0);
  let core = tokensOf([...head, state]);
  const refTokens = tokensOf(refs);
  const usable = budget - DEFAULT_SAFETY_TOKENS;

  // Turns: reuse the previous plan (append-only) unless a threshold says compact.
  const first = options.keepTurns === undefined ? 0 : Math.max(0, view.turns.length - options.keepTurns);
  const turns = view.turns.slice(first);
  const cost = (i: number, level: 'verbatim' | 'summary' | 'masked') => renderTurn(turns[i] as Turn, level, counter).tokens + sep;
  const recentTurns = options.recentTurns ?? o.recentTurns;
  let plan: PlannedLevel[] | undefined = previous && previous.levels.length <= turns.length ? [...previous.levels] : undefined;
  if (plan) while (plan.length < turns.length) plan.push('verbatim');
  const sum = (levels: PlannedLevel[]) => levels.reduce((s, l, i) => s + (l === 'dropped' ? 0 : cost(i, l)), 0);
  const verbatim = plan?.filter((l) => l === 'verbatim').length ?? 0;
  const keptSnippets = plan ? previous?.snippets : undefined;
  const snippetTokens = keptSnippets ? keptSnippets.rendered.tokens + sep : 0;
  const compacted =
    !plan || verbatim > recentTurns + o.compactEveryTurns || core + refTokens + snippetTokens + sum(plan) > budget * o.highWater;
  if (compacted || !plan) {
    if (previous) {
      state = renderState();
      core = tokensOf([...head, state]);
    }
    for (const turn of turns) {
      if (!turn.summaryStale) continue;
      delete turn.cache.summary;
      turn.summaryStale = false;
    }
    plan = planTurns(turns.length, {
      recentTurns,
      maskAfterTurns: o.maskAfterTurns,
      available: Math.max(0, Math.floor(budget * o.lowWater) - core - refTokens),
      hardAvailable: Math.max(0, usable - core),
      cost,
      noVerbatim: options.toolResults === 'summary',
    });
  }
  let turnTokens = sum(plan);
  // Reference material is the first thing to go when the turns need the room.
  if (core + refTokens + turnTokens <= usable) head.push(...refs);
  let snippetBlock = compacted ? undefined : keptSnippets;
  const fixed = tokensOf([...head, state]) + (snippetBlock ? snippetTokens : 0);
  const turnBlocks: Block[] = [];
  plan.forEach((level, i) => {
    const turn = turns[i] as Turn;
    if (level === 'dropped') return;
    let rendered = renderTurn(turn, level, counter);
    const isLast = i === turns.length - 1;
    if (isLast && fixed + turnTokens > usable) {
      // A single huge output: keep its head and tail so the newest result is still seen.
      const room = usable - fixed - (turnTokens - rendered.tokens - sep) - sep;
      rendered = level === 'verbatim' ? renderTurnClipped(turn, Math.max(32, room), counter) : renderTurn(turn, 'masked', counter);
      turnTokens += rendered.tokens - cost(i, level) + sep;
    }
    const age = turns.length - 1 - i;
    const priority = isLast ? 97 : age < recentTurns ? 80 - age : Math.max(11, 60 - age);
    turnBlocks.push({ id: `turn-${turn.index}`, rendered, priority, required: isLast, overflow: isLast ? 'head-tail' : 'drop' });
  });
  const stateAfter = compacted ? view.turns.length : (previous?.stateAfter ?? view.turns.length);
  const before = turnBlocks.filter((b) => turnIndexOf(b) < stateAfter);
  const after = turnBlocks.filter((b) => turnIndexOf(b) >= stateAfter);

  // Relevant code is chosen at a compaction and then stays put, ahead of the turns, so it never
  // breaks the prompt prefix between compactions.
  if (compacted) snippetBlock = selectSnippets(view, options, plan, first, Math.min(cap(o.shares.snippets), usable - fixed - turnTokens - sep));
  const blocks = [...head, ...(snippetBlock ? [snippetBlock] : []), ...before, state, ...after];
  const packed = packSections(
    blocks.map((b) => ({
      id: b.id,
      text: b.rendered.text,
      tokens: b.rendered.tokens,
      priority: b.priority,
      required: b.required ?? false,
      overflow: b.overflow,
      ...(b.minTokens !== undefined ? { minTokens: b.minTokens } : {}),
    })),
    { budget: usable, counter, separator: MESSAGE_SEPARATOR, exact: false },
  );
  const messages = toMessages(blocks, packed.sections);
  return {
    plan: { levels: plan, snippets: snippetBlock, state, stateAfter },
    context: {
      messages,
      text: packed.text,
      tokens: packed.tokens,
      budget,
      compacted,
      sections: packed.sections.map((s) => ({ id: s.id, tokens: s.tokens, action: s.action })),
      dropped: packed.dropped,
    },
  };
}

function turnIndexOf(b: Block): number {
  return Number(b.id.slice('turn-'.length));
}

function block(
  id: string,
  message: ContextMessage,
  maxTokens: number,
  overflow: 'head-tail' | 'trim-tail',
  counter: ResolvedManagerOptions['counter'],
  priority: number,
  required: boolean,
  minTokens?: number,
  memo?: ManagerView['memo'],
): Block {
  const key = `${id}@${maxTokens}`;
  const hit = memo?.get(key);
  let rendered: Rendered;
  if (hit && hit.source === message.content) rendered = hit.rendered;
  else {
    rendered = measure([message], counter);
    if (rendered.tokens > maxTokens) {
      const header = `${messageHeader(message)}\n`;
      const room = Math.max(8, maxTokens - counter.count(header) - 1);
      const content = shrinkLarge(message.content, room, overflow, counter, rendered.tokens);
      rendered = measure([{ ...message, content }], counter);
    }
    memo?.set(key, { source: message.content, rendered });
  }
  return { id, rendered, priority, required, overflow, ...(minTokens !== undefined ? { minTokens } : {}) };
}

function selectSnippets(
  view: ManagerView,
  options: AssembleOptions,
  plan: PlannedLevel[],
  first: number,
  room: number,
): Block | undefined {
  const max = options.maxSnippets ?? view.options.maxSnippets;
  if (max <= 0 || room < 64) return undefined;
  const candidates = view.snippets();
  if (candidates.length === 0) return undefined;
  const counter = view.options.counter;
  // Code already visible verbatim in a recent turn is not repeated.
  const visible = (turn: number) => plan[turn - first] === 'verbatim';
  const ranked = rankSnippets(
    candidates.filter((e) => !visible(e.turn)),
    {
      currentTurn: view.turns.length,
      isEdited: (path, name) => view.state.files.isModifiedFunction(path, name),
      isFileEdited: (path) => view.state.files.isModified(path),
      mentions: view.mentions,
    },
  );
  const header = '## Relevant code (snippets cut at function/class boundaries)';
  let used = counter.count(`[user]\n${header}`) + 2;
  const chosen: string[] = [];
  for (const entry of ranked) {
    if (chosen.length >= max) break;
    const text = renderSnippet(entry.snippet);
    entry.tokens ??= counter.count(text);
    if (used + entry.tokens + 1 > room) continue;
    chosen.push(text);
    used += entry.tokens + 1;
  }
  if (chosen.length === 0) return undefined;
  const rendered = measure([{ role: 'user', content: `${header}\n${chosen.join('\n\n')}` }], counter);
  return { id: 'snippets', rendered, priority: 20, overflow: 'drop' };
}

/** Maps packed sections back to messages; a section the packer had to cut keeps its cut text. */
function toMessages(blocks: readonly Block[], packed: readonly { id: string; text: string; action: string }[]): ContextMessage[] {
  const byId = new Map(blocks.map((b) => [b.id, b]));
  const out: ContextMessage[] = [];
  for (const section of packed) {
    const b = byId.get(section.id);
    if (!b) continue;
    if (section.action === 'kept') {
      out.push(...b.rendered.messages);
      continue;
    }
    const only = b.rendered.messages.length === 1 ? b.rendered.messages[0] : undefined;
    const header = only ? `${messageHeader(only)}\n` : '';
    const content = header && section.text.startsWith(header) ? section.text.slice(header.length) : section.text;
    out.push(only ? { ...only, content } : { role: 'user', content });
  }
  return out;
}
