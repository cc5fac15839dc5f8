import { contextLimitFor, o200kCounter } from '../tokens/index.js';
import { inputError, parseInput } from '../util/index.js';
import * as D from './defaults.js';
import { managerOptionsSchema } from './loop-option-schemas.js';
import type { ResolvedManagerOptions } from './types.js';

const WHAT = 'ContextManager options';

/**
 * Checks a ContextManager's options (unknown keys with the spelling expected, values in range,
 * numbers that conflict) and applies every default once. The answer reserve defaults to a quarter
 * of a small window (at most DEFAULT_RESERVE_TOKENS), so a 2k-8k local model gets a usable budget.
 *
 * @throws BatonError('CONFIG_INVALID') naming each bad key or value, and for a budget under
 *   MIN_BUDGET_TOKENS the numbers that would make it work.
 */
export function resolveManagerOptions(input: unknown): ResolvedManagerOptions {
  const options = parseInput(managerOptionsSchema, input ?? {}, { what: WHAT });
  const limit = options.limitTokens ?? contextLimitFor(options.model);
  const reserve = options.reserveTokens ?? defaultReserve(limit);
  const highWater = options.highWater ?? D.DEFAULT_HIGH_WATER;
  const lowWater = options.lowWater ?? D.DEFAULT_LOW_WATER;
  const problems = [...budgetProblems(limit, reserve, options.reserveTokens !== undefined)];
  if (lowWater >= highWater) {
    problems.push({
      field: options.lowWater !== undefined ? 'lowWater' : 'highWater',
      message: `lowWater (${lowWater}) must be below highWater (${highWater}): a compaction aims under the mark that starts it`,
    });
  }
  if (problems.length > 0) throw inputError(problems, { what: WHAT });
  return {
    budget: limit - reserve,
    recentTurns: options.recentTurns ?? D.DEFAULT_RECENT_TURNS,
    compactEveryTurns: options.compactEveryTurns ?? D.DEFAULT_COMPACT_EVERY_TURNS,
    maskAfterTurns: options.maskAfterTurns ?? D.DEFAULT_MASK_AFTER_TURNS,
    highWater,
    lowWater,
    maxSnippets: options.maxSnippets ?? D.DEFAULT_MAX_SNIPPETS,
    shares: { ...D.DEFAULT_CATEGORY_SHARES, ...options.shares },
    counter: options.counter ?? o200kCounter,
    summarizer: options.summarizer,
    metrics: options.metrics ?? true,
  };
}

/** A quarter of a small window, at most DEFAULT_RESERVE_TOKENS. */
export function defaultReserve(limitTokens: number): number {
  return Math.min(D.DEFAULT_RESERVE_TOKENS, Math.floor(limitTokens * D.DEFAULT_RESERVE_SHARE));
}

function budgetProblems(limit: number, reserve: number, reserveGiven: boolean): { field: string; message: string }[] {
  const budget = limit - reserve;
  if (budget >= D.MIN_BUDGET_TOKENS) return [];
  if (reserveGiven && reserve >= limit) {
    return [{ field: 'reserveTokens', message: `reserveTokens (${reserve}) must be less than limitTokens (${limit})` }];
  }
  let smallestLimit = D.MIN_BUDGET_TOKENS + (reserveGiven ? reserve : 0);
  if (!reserveGiven) while (smallestLimit - defaultReserve(smallestLimit) < D.MIN_BUDGET_TOKENS) smallestLimit += 1;
  const fixes = [`raise limitTokens to at least ${smallestLimit}`];
  if (limit > D.MIN_BUDGET_TOKENS) fixes.push(`set reserveTokens to at most ${limit - D.MIN_BUDGET_TOKENS}`);
  return [
    {
      field: 'limitTokens',
      message: `limitTokens (${limit}) less reserveTokens (${reserve}) leaves a prompt budget of ${budget} tokens; the smallest that works is ${D.MIN_BUDGET_TOKENS}: ${fixes.join(' or ')}`,
    },
  ];
}
