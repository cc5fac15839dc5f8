import { startsTokenPiece, type TokenCounter } from '../tokens/index.js';
import { levelCost, type PlannedLevel, windowStart } from './plan-turns.js';
import { ERROR_LINE } from './processors/error-lines.js';
import { messageHeader } from './render-message.js';
import { shrinkLarge } from './shrink-large.js';
import { countsOf, measure, type Rendered, renderTurn, type ToolResultRecord, type Turn, turnMessages } from './turn.js';

/** The smallest share of the window's allowance an output is cut to (about its first and last line). @default 40 */
export const MIN_SHARED_TOKENS = 40;
/** Renderings at different shares kept per turn (a compaction tries a few). */
const MAX_SHARED_RENDERINGS = 8;
/** Tokens left per output for the joins of a cut output's parts. */
const JOIN_SLACK = 3;
/** Re-measures when a share's rendering comes out over its room (joins count a little apart). */
const FIT_ATTEMPTS = 4;

/**
 * The recent window shown with one head+tail allowance: turns from `from` to the end are
 * `clipped`, each output kept whole when it holds at most `water` tokens, else cut to its head and
 * tail at `water` tokens (at line ends where it can).
 */
export interface SharedWindow {
  levels: PlannedLevel[];
  water: number;
}

/** What sharing the window needs from the planner. */
export interface ShareWindowInput {
  plan: readonly PlannedLevel[];
  /** Tool calls after each turn (actionAges). */
  ages: readonly number[];
  recentTurns: number;
  /** Tokens the turns may use at most. */
  hard: number;
  /** Tokens of turn `i` at a planned level other than `clipped`, separator included. */
  cost: (i: number, level: Exclude<PlannedLevel, 'dropped' | 'clipped'>) => number;
  turns: readonly Turn[];
  counter: TokenCounter;
  /** Tokens of the separator between two sections. */
  sep: number;
}

/**
 * At a small budget the newest outputs share one head+tail allowance instead of the newest being
 * clipped alone while the turns before it are dropped or reduced to summaries: when the plan had to
 * demote a turn of the recent window (the last `recentTurns` calls) or the window does not fit
 * `hard` at all, the window's outputs are water-filled (small ones whole, large ones cut to the same
 * head+tail share). Older turns keep their plan while they fit beside it, else go. When even the
 * smallest share does not fit, the oldest window turn is dropped and the rest share again.
 * Returns undefined when the plan's window is whole or nothing can share. Pure but for the turns' caches.
 */
export function shareWindow(input: ShareWindowInput): SharedWindow | undefined {
  const { plan, ages, recentTurns, hard, cost } = input;
  const count = plan.length;
  const start = windowStart(ages, recentTurns);
  let total = 0;
  for (let i = 0; i < count; i += 1) total += levelCost(plan, i, cost);
  const whole = plan.slice(start).every((l) => l === 'verbatim' || l === 'compact');
  if (count === 0 || (whole && total <= hard)) return undefined;
  let older = 0;
  for (let i = 0; i < start; i += 1) older += levelCost(plan, i, cost);
  for (let from = start; from < count; from += 1) {
    const window = shareFrom(input, from, hard);
    if (!window) continue;
    // Older turns stay only when the window's share is the same beside them.
    const beside = older > 0 ? shareFrom(input, from, hard - older) : undefined;
    const keepOlder = beside !== undefined && beside.water >= window.water && beside.newestWhole === window.newestWhole;
    const levels = plan.map((l, i): PlannedLevel => {
      if (i >= from) return i === count - 1 && window.newestWhole ? 'compact' : 'clipped';
      return i < start && keepOlder ? l : 'dropped';
    });
    return { levels, water: window.water };
  }
  return undefined;
}

/**
 * Turns `from`..end within `room`: the newest output whole (its calls compacted) and the ones
 * before it sharing the rest when their share stays at least MIN_SHARED_TOKENS, else all sharing.
 */
function shareFrom(input: ShareWindowInput, from: number, room: number): { water: number; newestWhole: boolean } | undefined {
  const last = input.plan.length - 1;
  if (from < last) {
    const water = fitWater(input, from, last, room - input.cost(last, 'compact'));
    if (water !== undefined) return { water, newestWhole: true };
  }
  const water = fitWater(input, from, last + 1, room);
  return water === undefined ? undefined : { water, newestWhole: false };
}

/** The largest share at which turns `from` to `end` (exclusive) fit `room` (water-filled), or undefined below the minimum. */
function fitWater(input: ShareWindowInput, from: number, end: number, room: number): number | undefined {
  const { turns, counter, sep } = input;
  const window = turns.slice(from, end);
  let fixed = 0;
  const sizes: number[] = [];
  for (const turn of window) {
    turn.cache.bare ??= measure(
      turnMessages(turn, () => '', true),
      counter,
    ).tokens;
    fixed += turn.cache.bare + sep;
    for (const r of turn.results) sizes.push(rawTokens(r, counter, turn.cache.counts));
  }
  // Each cut output's join and marker cost a few tokens more than its share: leave them room so
  // the first rendering usually fits.
  let water = waterLevel(sizes, room - fixed - JOIN_SLACK * sizes.length);
  for (let attempt = 0; attempt < FIT_ATTEMPTS && water !== undefined; attempt += 1) {
    const used = window.reduce((sum, turn) => sum + renderTurnShared(turn, water as number, counter).tokens + sep, 0);
    if (used <= room) return water;
    const cut = sizes.filter((s) => s > (water as number)).length || 1;
    water = water - Math.ceil((used - room) / cut);
    if (water < MIN_SHARED_TOKENS) return undefined;
  }
  return undefined;
}

/**
 * Water-filling: the level at which the sizes, each capped at it, sum to at most `room`; every
 * size when they all fit; undefined when the level would be under MIN_SHARED_TOKENS. Pure.
 */
export function waterLevel(sizes: readonly number[], room: number): number | undefined {
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = room;
  for (let k = 0; k < sorted.length; k += 1) {
    const share = Math.floor(left / (sorted.length - k));
    const size = sorted[k] as number;
    if (size > share) return share >= MIN_SHARED_TOKENS ? share : undefined;
    left -= size;
  }
  return left >= 0 ? Math.max(MIN_SHARED_TOKENS, sorted.at(-1) ?? 0) : undefined;
}

/** A turn with its calls compacted and each output at most `water` tokens (head and tail). Cached per share. */
export function renderTurnShared(turn: Turn, water: number, counter: TokenCounter): Rendered {
  const shared = (turn.cache.shared ??= new Map<number, Rendered>());
  const hit = shared.get(water);
  if (hit) return hit;
  const rendered = measure(
    turnMessages(turn, (r) => clipOutput(r, water, counter), true),
    counter,
    countsOf(turn),
  );
  if (shared.size >= MAX_SHARED_RENDERINGS) shared.clear();
  shared.set(water, rendered);
  return rendered;
}

/**
 * Tokens of an output. When the turn's verbatim rendering already counted its tool message
 * (`[tool name]` + line break + output, measure's memo) and the output starts a new o200k piece
 * there (startsTokenPiece), the output's count is that less the header's: it is not tokenized again.
 */
function rawTokens(result: ToolResultRecord, counter: TokenCounter, counts?: ReadonlyMap<string, number>): number {
  if (result.rawTokens !== undefined) return result.rawTokens;
  const header = `${messageHeader({ role: 'tool', callId: result.callId, name: result.name, content: '' })}\n`;
  const message = counts && startsTokenPiece(result.raw) ? counts.get(`${header}${result.raw}`) : undefined;
  result.rawTokens = message === undefined ? counter.count(result.raw) : message - counter.count(header);
  return result.rawTokens;
}

const MARKER = /\n\[\.\.\. \d+ tokens omitted \.\.\.\]\n/;
/** Error-looking lines a cut output keeps from its omitted middle. */
const MAX_SALIENT = 2;
const SALIENT_CHARS = 200;

/**
 * The output whole when it fits `water`, else its head and tail (cut back to whole lines where a
 * line end is near) and, between them, up to two error-looking lines of the omitted middle.
 */
function clipOutput(result: ToolResultRecord, water: number, counter: TokenCounter): string {
  const tokens = rawTokens(result, counter);
  if (tokens <= water) return result.raw;
  const salient = salientLines(result.raw);
  const salientTokens = salient.length > 0 ? counter.count(salient.join('\n')) + 2 : 0;
  const keep = water - salientTokens >= MIN_SHARED_TOKENS / 2 ? salient : [];
  const shrunk = shrinkLarge(result.raw, water - (keep.length > 0 ? salientTokens : 0), 'head-tail', counter, tokens);
  const marker = MARKER.exec(shrunk);
  if (!marker) return shrunk;
  let head = shrunk.slice(0, marker.index);
  let tail = shrunk.slice(marker.index + marker[0].length);
  const headCut = head.lastIndexOf('\n');
  if (headCut > head.length / 2) head = head.slice(0, headCut);
  const tailCut = tail.indexOf('\n');
  if (tailCut >= 0 && tailCut < tail.length / 2) tail = tail.slice(tailCut + 1);
  const middle = keep.filter((l) => !head.includes(l) && !tail.includes(l));
  return `${head}${marker[0]}${middle.map((l) => `${l}\n`).join('')}${tail}`;
}

/** The output's last error-looking lines (ERROR_LINE), each clipped to SALIENT_CHARS. Pure. */
function salientLines(raw: string): string[] {
  const lines = raw.split('\n');
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < MAX_SALIENT; i -= 1) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (line.trim().length > 0 && ERROR_LINE.test(line)) out.unshift(line.slice(0, SALIENT_CHARS));
  }
  return out;
}

/** A turn at its planned level (`clipped` at the window's shared `water`); not for dropped turns. */
export function renderPlanned(
  turn: Turn,
  level: Exclude<PlannedLevel, 'dropped'>,
  water: number | undefined,
  counter: TokenCounter,
): Rendered {
  return level === 'clipped' ? renderTurnShared(turn, water ?? MIN_SHARED_TOKENS, counter) : renderTurn(turn, level, counter);
}
