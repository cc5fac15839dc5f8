import type { TurnLevel } from './types.js';

/** Share of the hard limit kept for older turns' one-line masks when recent turns fill the target. */
const OLD_TURNS_BAND = 0.15;

/**
 * A turn's level in a plan; dropped turns are left out of the prompt; `clipped` turns are the
 * recent window sharing one head+tail allowance (share-window.ts).
 */
export type PlannedLevel = TurnLevel | 'clipped' | 'dropped';

/** Inputs of a compaction plan. */
export interface PlanTurnsOptions {
  /**
   * Newest tool calls kept verbatim with their results (recency by action): the turns holding the
   * last `recentTurns` calls, and any text-only turn or prompt among them, are the verbatim window.
   */
  recentTurns: number;
  /** Turns with more calls than this after them are masked; between the window and this they show summaries. */
  maskAfterTurns: number;
  /** Tool calls of turn `i`. @default every turn counts as one call */
  calls?: (i: number) => number;
  /** Tokens the turns should use together after a compaction; older turns are masked and dropped to get there. */
  available: number;
  /** Tokens the turns may use at most; recent turns are demoted only to stay under this. @default available */
  hardAvailable?: number;
  /** Token count of turn `i` at a level (cached by the caller). */
  cost: (i: number, level: TurnLevel) => number;
  /** Show no tool output verbatim (retry 2). @default false */
  noVerbatim?: boolean;
}

/**
 * How many tool calls come after each turn (its age in actions): turn `i` is in the verbatim
 * window while fewer than `recentTurns` calls follow it. Text-only turns and prompts add no age. Pure.
 */
export function actionAges(count: number, calls: (i: number) => number = () => 1): number[] {
  const ages = new Array<number>(count);
  let after = 0;
  for (let i = count - 1; i >= 0; i -= 1) {
    ages[i] = after;
    after += calls(i);
  }
  return ages;
}

/**
 * Decides how each turn is shown after a compaction. Starts from recency by action (the turns of
 * the newest calls verbatim, then summaries, then one-line masks; old calls' arguments compacted);
 * while over `available` it masks the older summaries and then drops the oldest turns; only while
 * over `hardAvailable` does it demote the recent turns: first their calls' arguments shrink
 * (`compact`), then their outputs, oldest first. The newest turn is always kept (the caller clips
 * a huge one head-and-tail). Pure.
 */
export function planTurns(count: number, options: PlanTurnsOptions): PlannedLevel[] {
  const { recentTurns, maskAfterTurns, available, cost } = options;
  const ages = actionAges(count, options.calls);
  const levels: PlannedLevel[] = [];
  for (let i = 0; i < count; i += 1) {
    const age = ages[i] as number;
    if (age < recentTurns) levels.push(options.noVerbatim ? 'summary' : 'verbatim');
    else levels.push(age < maskAfterTurns ? 'summary' : 'masked');
  }
  const hard = options.hardAvailable ?? available;
  const recentStart = windowStart(ages, recentTurns);
  // Older turns that cannot fit even masked are dropped without being measured, so a long
  // history costs about one budget of counting, not its whole length.
  let room = hard;
  for (let i = recentStart; i < count; i += 1) room -= levelCost(levels, i, cost);
  let firstKept = recentStart;
  for (let i = recentStart - 1; i >= 0; i -= 1) {
    room -= cost(i, 'masked');
    if (room < 0) break;
    firstKept = i;
  }
  for (let i = 0; i < firstKept; i += 1) levels[i] = 'dropped';
  let total = 0;
  for (let i = firstKept; i < count; i += 1) total += levelCost(levels, i, cost);
  const set = (i: number, level: PlannedLevel) => {
    total -= levelCost(levels, i, cost);
    levels[i] = level;
    total += levelCost(levels, i, cost);
  };
  for (let i = firstKept; i < recentStart && total > available; i += 1) if (levels[i] === 'summary') set(i, 'masked');
  // Recent turns can fill the target alone; older turns then keep a band of one-line masks.
  let recentTotal = 0;
  for (let i = recentStart; i < count; i += 1) recentTotal += levelCost(levels, i, cost);
  const keepOld = Math.max(available, Math.min(hard, recentTotal + Math.floor(hard * OLD_TURNS_BAND)));
  for (let i = firstKept; i < recentStart && total > keepOld; i += 1) set(i, 'dropped');
  for (let i = firstKept; i < recentStart && total > hard; i += 1) set(i, 'dropped');
  for (let i = recentStart; i < count - 1 && total > hard; i += 1) if (levels[i] === 'verbatim') set(i, 'compact');
  for (let i = recentStart; i < count - 1 && total > hard; i += 1) if (levels[i] === 'compact') set(i, 'summary');
  for (let i = recentStart; i < count - 1 && total > hard; i += 1) set(i, 'masked');
  for (let i = recentStart; i < count - 1 && total > hard; i += 1) set(i, 'dropped');
  return levels;
}

/** The first turn of the recent window (fewer than `recentTurns` calls after it); the newest turn at least. Pure. */
export function windowStart(ages: readonly number[], recentTurns: number): number {
  let start = ages.length;
  while (start > 0 && (ages[start - 1] as number) < recentTurns) start -= 1;
  return Math.min(start, Math.max(0, ages.length - 1));
}

/** Tokens of turn `i` at its planned level; none when dropped or clipped (the shared window counts those). */
export function levelCost(levels: readonly PlannedLevel[], i: number, cost: (i: number, level: TurnLevel) => number): number {
  const level = levels[i];
  return level === undefined || level === 'dropped' || level === 'clipped' ? 0 : cost(i, level);
}
