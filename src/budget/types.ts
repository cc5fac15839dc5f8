import type { TokenCounter } from '../tokens/index.js';

/** What happens to a section that does not fit. */
export type OverflowStrategy = 'trim-head' | 'trim-tail' | 'head-tail' | 'summarize' | 'drop';

/** One piece of context competing for the budget. */
export interface Section {
  /** Stable id, reported back in the result. */
  id: string;
  text: string;
  /** Higher survives longer; the lowest priority shrinks first. */
  priority: number;
  /** Never dropped; may still be trimmed to `minTokens` by its overflow strategy. @default false */
  required?: boolean;
  /** Cap applied before packing, with the same overflow strategy (a per-category budget). */
  maxTokens?: number;
  /** Below this a trimmed section is dropped instead (unless required). @default 16 */
  minTokens?: number;
  /** @default 'trim-tail' */
  overflow?: OverflowStrategy;
  /** Shorter stand-in used by 'summarize' before trimming; computed lazily. */
  summary?: string | (() => string);
  /** Precomputed token count of `text`, when the caller caches it. */
  tokens?: number;
}

/** A section as it ends up in the packed context. */
export interface PackedSection {
  id: string;
  text: string;
  tokens: number;
  /** How it was shrunk, if at all. */
  action: 'kept' | 'trimmed' | 'summarized';
}

export interface PackOptions {
  /** Hard cap on the joined text, in tokens. */
  budget: number;
  /** @default o200kCounter */
  counter?: TokenCounter;
  /** Joins the kept sections. @default '\n\n' */
  separator?: string;
  /**
   * Re-count the joined text and shrink further until it fits, so the cap holds exactly.
   * Turn off only when the caller accepts the sum of section counts as the total. @default true
   */
  exact?: boolean;
}

export interface PackResult {
  /** Kept sections, in input order. */
  sections: PackedSection[];
  text: string;
  tokens: number;
  dropped: string[];
  trimmed: string[];
  summarized: string[];
}
