import type { CategoryShares } from './types.js';

/** Tokens left for the model's answer, at most (a small window keeps DEFAULT_RESERVE_SHARE of itself). @default 4096 */
export const DEFAULT_RESERVE_TOKENS = 4096;
/** A window smaller than 16k keeps this share of itself for the answer instead. @default 0.25 */
export const DEFAULT_RESERVE_SHARE = 0.25;
/**
 * The smallest prompt budget (window less reserve) the manager accepts: what every context must
 * carry at its smallest (the system prompt's head and tail, the task's first 400 characters, the
 * loop state and the newest turn's head and tail) fits in it whatever the text.
 * @default 512
 */
export const MIN_BUDGET_TOKENS = 512;
/** @default 3 */
export const DEFAULT_RECENT_TURNS = 3;
/** @default 2 */
export const DEFAULT_COMPACT_EVERY_TURNS = 2;
/** @default 6 */
export const DEFAULT_MASK_AFTER_TURNS = 6;
/** @default 0.9 */
export const DEFAULT_HIGH_WATER = 0.9;
/** @default 0.7 */
export const DEFAULT_LOW_WATER = 0.7;
/** @default 8 */
export const DEFAULT_MAX_SNIPPETS = 8;
/** Tokens kept free for the small differences between counting parts and counting the whole. @default 16 */
export const DEFAULT_SAFETY_TOKENS = 16;

/** Per-category ceilings as shares of the budget (see CategoryShares for each default). */
export const DEFAULT_CATEGORY_SHARES: CategoryShares = {
  system: 0.35,
  goal: 0.25,
  state: 0.1,
  snippets: 0.1,
  reference: 0.05,
};
