import { packSections, type Section } from '../budget/index.js';
import { BatonError, isBatonError } from '../errors/index.js';
import { definedFields } from '../util/index.js';
import { DEFAULT_SAFETY_TOKENS } from './defaults.js';
import { actionAges, type PlannedLevel, planTurns } from './plan-turns.js';
import { MESSAGE_SEPARATOR, messageHeader, renderMessage } from './render-message.js';
import { renderPlanned, shareWindow } from './share-window.js';
import { shrinkLarge } from './shrink-large.js';
import { shrinkTask } from './shrink-task.js';
import { rankSnippets, renderSnippet, type SnippetEntry } from './snippets/rank-snippets.js';
import type { LoopState } from './tracker/loop-state.js';
import type { PinnedFacts } from './tracker/pinned-facts.js';
import { measure, type Rendered, renderTurn, renderTurnClipped, type Turn } from './turn.js';
import type { AssembledContext, AssembleOptions, ContextMessage, ResolvedManagerOptions } from './types.js';

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
  /** The newest request, open plan items and newest failure, rendered beside the goal. */
  pinned: PinnedFacts;
  mentions: (name: string) => number;
  /** Renderings of the head sections, kept between assemblies (keyed by id and cap). */
  memo: Map<string, { source: string; rendered: Rendered }>;
}

/** One section as assembly builds it: what the packer reads of it, and its messages. */
export type Block = Pick<Section, 'id' | 'priority' | 'required' | 'overflow' | 'minTokens'> & { rendered: Rendered };

/**
 * What a manager keeps between assemblies at one budget, all fixed until the next compaction: the
 * turn levels, the code block, and the loop state as rendered then, with the number of turns it
 * follows (turns recorded since are appended after it, verbatim).
 */
export interface PlanState {
  levels: PlannedLevel[];
  snippets: Block | undefined;
  state: Block;
  /** The pinned facts as rendered at the last compaction (none while nothing is pinned). */
  pinned: Block | undefined;
  stateAfter: number;
  /** The recent window's shared allowance per output, when its turns are `clipped`. */
  water?: number;
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
  const scope = assemblyScope(view, options);
  const { head, refs, renderState } = buildHeadBlocks(scope);
  const turnPlan = planTurnLevels(scope, previous, head, refs, renderState);
  const { plan, compacted, state, first, pinned, water } = turnPlan;
  if (pinned) head.push(pinned);
  // Reference material is the first thing to go when the turns need the room.
  if (turnPlan.core + turnPlan.refTokens + turnPlan.turnTokens <= scope.usable) head.push(...refs);
  let snippetBlock = compacted ? undefined : previous?.snippets;
  const fixed = tokensOf(scope, [...head, state]) + (snippetBlock ? snippetBlock.rendered.tokens + scope.sep : 0);
  const { blocks: turnBlocks, turnTokens } = buildTurnBlocks(scope, turnPlan, fixed);
  const stateAfter = compacted ? view.turns.length : (previous?.stateAfter ?? view.turns.length);
  const before = turnBlocks.filter((b) => turnIndexOf(b) < stateAfter);
  const after = turnBlocks.filter((b) => turnIndexOf(b) >= stateAfter);

  // Relevant code is chosen at a compaction and then stays put, ahead of the turns, so it never
  // breaks the prompt prefix between compactions.
  if (compacted) {
    const room = Math.min(scope.cap(view.options.shares.snippets), scope.usable - fixed - turnTokens - scope.sep);
    snippetBlock = selectSnippets(view, options, plan, first, room);
  }
  const blocks = [...head, ...(snippetBlock ? [snippetBlock] : []), ...before, state, ...after];
  const packed = packOrExplain(
    blocks.map(({ rendered, ...block }) => ({ ...block, text: rendered.text, tokens: rendered.tokens })),
    { budget: scope.usable, counter: scope.counter, separator: MESSAGE_SEPARATOR, exact: false },
    scope.budget,
  );
  return {
    plan: { levels: plan, snippets: snippetBlock, state, pinned, stateAfter, ...definedFields({ water }) },
    context: {
      messages: toMessages(blocks, packed.sections),
      text: packed.text,
      tokens: packed.tokens,
      budget: scope.budget,
      compacted,
      sections: packed.sections.map((s) => ({ id: s.id, tokens: s.tokens, action: s.action })),
      dropped: packed.dropped,
    },
  };
}

/** packSections, with a too-small budget explained in the loop's terms. */
function packOrExplain(sections: Section[], options: Parameters<typeof packSections>[1], budget: number): ReturnType<typeof packSections> {
  try {
    return packSections(sections, options);
  } catch (error) {
    if (!isBatonError(error, 'BUDGET_TOO_SMALL')) throw error;
    const needed = Number(error.details.needed);
    throw new BatonError(
      'BUDGET_TOO_SMALL',
      `ContextManager: a prompt budget of ${budget} tokens cannot hold what every context carries at its smallest (the system prompt's head and tail, the task's first ${GOAL_HEAD_CHARS} characters, the loop state and the newest turn's head and tail: ${needed} tokens here). Raise limitTokens or lower reserveTokens (the budget is limitTokens less reserveTokens), pass a larger assemble({ budget }), or shorten the task's opening.`,
      { cause: error, details: { budget, needed } },
    );
  }
}

/** What every step of one assembly shares: the inputs, the counter and the derived limits. */
interface AssemblyScope {
  view: ManagerView;
  options: AssembleOptions & { budget: number };
  budget: number;
  counter: ResolvedManagerOptions['counter'];
  /** Tokens of the separator between two sections. */
  sep: number;
  /** The budget less the safety margin: what the packer may fill. */
  usable: number;
  /** A category's token cap from its share of the budget. */
  cap: (share: number) => number;
}

function assemblyScope(view: ManagerView, options: AssembleOptions & { budget: number }): AssemblyScope {
  const { budget } = options;
  const factor = options.shareFactor ?? 1;
  return {
    view,
    options,
    budget,
    counter: view.options.counter,
    sep: view.options.counter.count(MESSAGE_SEPARATOR),
    usable: budget - DEFAULT_SAFETY_TOKENS,
    cap: (share) => Math.max(32, Math.floor(budget * share * factor)),
  };
}

function tokensOf(scope: AssemblyScope, blocks: readonly Block[]): number {
  return blocks.reduce((sum, b) => sum + b.rendered.tokens + scope.sep, 0);
}

/** The system message and the goal (never dropped), the references, and how to render the loop state. */
function buildHeadBlocks(scope: AssemblyScope): { head: Block[]; refs: Block[]; renderState: () => StateBlocks } {
  const { view, counter, cap } = scope;
  const { shares } = view.options;
  const memo = view.memo;
  const head: Block[] = [];
  if (view.system !== undefined) {
    const message: ContextMessage = { role: 'system', content: view.system };
    head.push(
      renderBlock(
        { id: 'system', message, maxTokens: cap(shares.system), overflow: 'head-tail', priority: 100, required: true, memo },
        counter,
      ),
    );
  }
  if (view.goal !== undefined) {
    const goalHead = renderMessage({ role: 'user', content: view.goal.slice(0, GOAL_HEAD_CHARS) });
    const minGoal = memo.get(goalHead)?.rendered.tokens ?? counter.count(goalHead);
    memo.set(goalHead, { source: goalHead, rendered: { messages: [], text: '', tokens: minGoal } });
    const message: ContextMessage = { role: 'user', content: view.goal };
    const maxTokens = Math.max(minGoal, cap(shares.goal));
    head.push(
      renderBlock(
        {
          id: 'goal',
          message,
          maxTokens,
          overflow: 'trim-tail',
          priority: 99,
          required: true,
          minTokens: minGoal,
          memo,
          shrink: (text, room) => shrinkTask(text, room, counter, GOAL_HEAD_CHARS),
        },
        counter,
      ),
    );
  }
  const refCap = view.references.length ? Math.floor(cap(shares.reference) / view.references.length) : 0;
  const refs = view.references.map((text, i) =>
    renderBlock(
      { id: `reference-${i}`, message: { role: 'user', content: text }, maxTokens: refCap, overflow: 'head-tail', priority: 10, memo },
      counter,
    ),
  );
  const stateBlock = (id: string, content: string, priority: number) =>
    renderBlock(
      { id, message: { role: 'user', content }, maxTokens: cap(shares.state), overflow: 'trim-tail', priority, required: true },
      counter,
    );
  const renderState = (): StateBlocks => {
    // Over its cap, the state lists the modified files without their details, so every name stays.
    let body = view.state.render();
    if (counter.count(body) > cap(shares.state)) body = view.state.render(true);
    const facts = view.pinned.render();
    return {
      state: stateBlock('state', `## Loop state\n${body}`, 90),
      pinned: facts ? stateBlock('pinned', `## Pinned (newest request, open plan, newest failure)\n${facts}`, 95) : undefined,
    };
  };
  return { head, refs, renderState };
}

/** The loop state and the pinned facts, rendered together at each compaction. */
type StateBlocks = Pick<PlanState, 'state' | 'pinned'>;

/** The turns' levels for this assembly: the previous plan extended (append-only), or a new one at a compaction. */
interface TurnPlan {
  turns: readonly Turn[];
  /** Index in view.turns of turns[0] (keepTurns can leave older turns out). */
  first: number;
  plan: PlannedLevel[];
  compacted: boolean;
  state: Block;
  pinned: Block | undefined;
  /** Tokens of the head blocks, the pinned facts and the state. */
  core: number;
  refTokens: number;
  turnTokens: number;
  recentTurns: number;
  cost: (i: number, level: Exclude<PlannedLevel, 'dropped'>) => number;
  /** Tool calls after each turn (its age in actions; see actionAges). */
  ages: number[];
  /** The recent window's shared allowance per output, when its turns are `clipped`. */
  water: number | undefined;
}

/**
 * Reuses the previous plan (append-only) unless a threshold says compact: too many verbatim turns
 * or the context past highWater. A compaction re-renders the loop state and re-plans to lowWater.
 */
function planTurnLevels(
  scope: AssemblyScope,
  previous: PlanState | undefined,
  head: readonly Block[],
  refs: readonly Block[],
  renderState: () => StateBlocks,
): TurnPlan {
  const { view, options, budget, counter, sep } = scope;
  const o = view.options;
  // Between compactions the state stays as rendered at the last one, so the prompt only grows at
  // its end: what happened since is in the verbatim turns after it.
  let { state, pinned } = previous ?? renderState();
  const coreOf = () => tokensOf(scope, [...head, ...(pinned ? [pinned] : []), state]);
  let core = coreOf();
  const refTokens = tokensOf(scope, refs);
  const first = options.keepTurns === undefined ? 0 : Math.max(0, view.turns.length - options.keepTurns);
  const turns = view.turns.slice(first);
  // The previous plan's levels (and shared allowance) still apply while it is extended, not redone.
  const extended = previous && previous.levels.length <= turns.length ? previous : undefined;
  let water = extended?.water;
  const cost = (i: number, level: Exclude<PlannedLevel, 'dropped'>) => renderPlanned(turns[i] as Turn, level, water, counter).tokens + sep;
  const recentTurns = options.recentTurns ?? o.recentTurns;
  let plan: PlannedLevel[] | undefined = extended && [...extended.levels];
  if (plan) while (plan.length < turns.length) plan.push('verbatim');
  const sum = (levels: PlannedLevel[]) => levels.reduce((s, l, i) => s + (l === 'dropped' ? 0 : cost(i, l)), 0);
  const calls = (i: number) => (turns[i] as Turn).toolCalls.length;
  const ages = actionAges(turns.length, calls);
  // Calls shown verbatim since the last compaction: past the window by compactEveryTurns, re-plan.
  const verbatim = plan?.reduce((n, l, i) => (l === 'verbatim' || l === 'compact' ? n + calls(i) : n), 0) ?? 0;
  const keptSnippets = plan ? previous?.snippets : undefined;
  const snippetTokens = keptSnippets ? keptSnippets.rendered.tokens + sep : 0;
  const compacted =
    !plan || verbatim > recentTurns + o.compactEveryTurns || core + refTokens + snippetTokens + sum(plan) > budget * o.highWater;
  if (compacted || !plan) {
    if (previous) {
      ({ state, pinned } = renderState());
      core = coreOf();
    }
    for (const turn of turns) {
      if (!turn.summaryStale) continue;
      delete turn.cache.summary;
      turn.summaryStale = false;
    }
    const hard = Math.max(0, scope.usable - core);
    const noVerbatim = options.toolResults === 'summary';
    const available = Math.max(0, Math.floor(budget * o.lowWater) - core - refTokens);
    plan = planTurns(turns.length, {
      recentTurns,
      maskAfterTurns: o.maskAfterTurns,
      available,
      hardAvailable: hard,
      cost,
      calls,
      noVerbatim,
    });
    const shared = noVerbatim ? undefined : shareWindow({ plan, ages, recentTurns, hard, cost, turns, counter, sep });
    water = shared?.water;
    if (shared) plan = shared.levels;
  }
  return { turns, first, plan, compacted, state, pinned, core, refTokens, turnTokens: sum(plan), recentTurns, cost, ages, water };
}

/** One block per kept turn; the newest keeps head and tail of a single huge output. */
function buildTurnBlocks(scope: AssemblyScope, turnPlan: TurnPlan, fixed: number): { blocks: Block[]; turnTokens: number } {
  const { counter, sep, usable } = scope;
  const { turns, plan, recentTurns, cost, ages } = turnPlan;
  let turnTokens = turnPlan.turnTokens;
  const blocks: Block[] = [];
  plan.forEach((level, i) => {
    const turn = turns[i] as Turn;
    if (level === 'dropped') return;
    let rendered = renderPlanned(turn, level, turnPlan.water, counter);
    const isLast = i === turns.length - 1;
    if (isLast && fixed + turnTokens > usable) {
      // A single huge output: keep its head and tail so the newest result is still seen.
      const room = usable - fixed - (turnTokens - rendered.tokens - sep) - sep;
      const whole = level === 'verbatim' || level === 'clipped';
      rendered = whole ? renderTurnClipped(turn, Math.max(32, room), counter) : renderTurn(turn, 'masked', counter);
      turnTokens += rendered.tokens - cost(i, level) + sep;
    }
    const age = ages[i] as number;
    const priority = isLast ? 97 : age < recentTurns ? 80 - age : Math.max(11, 60 - age);
    blocks.push({ id: `turn-${turn.index}`, rendered, priority, required: isLast, overflow: isLast ? 'head-tail' : 'drop' });
  });
  return { blocks, turnTokens };
}

function turnIndexOf(b: Block): number {
  return Number(b.id.slice('turn-'.length));
}

/** A message to render as one block, cut to `maxTokens` (keeping head and tail, or the head). */
interface BlockSpec extends Omit<Block, 'rendered'> {
  message: ContextMessage;
  maxTokens: number;
  overflow: 'head-tail' | 'trim-tail';
  /** Renderings kept between assemblies, keyed by id and cap. */
  memo?: ManagerView['memo'];
  /** How to cut the content to `room` tokens. @default shrinkLarge with `overflow` */
  shrink?: (text: string, room: number) => string;
}

function renderBlock(spec: BlockSpec, counter: ResolvedManagerOptions['counter']): Block {
  const { message, maxTokens, memo, shrink, ...block } = spec;
  const key = `${block.id}@${maxTokens}`;
  const hit = memo?.get(key);
  let rendered: Rendered;
  if (hit && hit.source === message.content) rendered = hit.rendered;
  else {
    rendered = measure([message], counter);
    if (rendered.tokens > maxTokens) {
      const header = `${messageHeader(message)}\n`;
      const room = Math.max(8, maxTokens - counter.count(header) - 1);
      const content = shrink ? shrink(message.content, room) : shrinkLarge(message.content, room, block.overflow, counter, rendered.tokens);
      rendered = measure([{ ...message, content }], counter);
    }
    memo?.set(key, { source: message.content, rendered });
  }
  return { ...block, rendered };
}

function selectSnippets(view: ManagerView, options: AssembleOptions, plan: PlannedLevel[], first: number, room: number): Block | undefined {
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
