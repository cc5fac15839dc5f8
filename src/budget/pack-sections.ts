import { BatonError } from '../errors/index.js';
import { o200kCounter, type TokenCounter } from '../tokens/index.js';
import { shrinkText } from './shrink-text.js';
import type { OverflowStrategy, PackedSection, PackOptions, PackResult, Section } from './types.js';

/** @default 16 */
export const DEFAULT_MIN_SECTION_TOKENS = 16;
/** @default '\n\n' */
export const DEFAULT_SEPARATOR = '\n\n';

interface Working {
  section: Section;
  text: string;
  tokens: number;
  action: PackedSection['action'];
  dropped: boolean;
}

/**
 * Packs prioritized sections into a token budget: each section is first held to its own
 * `maxTokens`, then the lowest-priority sections shrink (summarize, trim, or drop, as each
 * section's `overflow` says) until the joined text fits. Required sections are never dropped.
 * Pure; input order is kept in the output.
 *
 * Trusts its types (built in code; config and tool input are checked at their edge).
 * @throws BatonError('BUDGET_TOO_SMALL') when the required sections cannot fit even at their minimum.
 * @example
 * packSections([{ id: 'goal', text: goal, priority: 100, required: true },
 *               { id: 'history', text: log, priority: 10, overflow: 'trim-head' }], { budget: 1000 });
 */
export function packSections(sections: readonly Section[], options: PackOptions): PackResult {
  const counter = options.counter ?? o200kCounter;
  const separator = options.separator ?? DEFAULT_SEPARATOR;
  const separatorTokens = separator.length === 0 ? 0 : counter.count(separator);
  const work: Working[] = sections.map((section) => capSection(section, counter));

  const total = () => sumTokens(work, separatorTokens);
  const order = [...work].sort((a, b) => a.section.priority - b.section.priority);
  for (const item of order) {
    const excess = total() - options.budget;
    if (excess <= 0) break;
    shrink(item, item.tokens - excess, counter);
  }

  let result = assemble(work, separator, counter, options.exact !== false);
  // The joined text can tokenize a little differently from the sum of its parts.
  while (result.tokens > options.budget) {
    const victim = order.find((item) => !item.dropped && item.tokens > 0 && canShrink(item));
    if (!victim) break;
    shrink(victim, victim.tokens - (result.tokens - options.budget) - 1, counter);
    result = assemble(work, separator, counter, true);
  }
  if (result.tokens > options.budget) {
    throw new BatonError(
      'BUDGET_TOO_SMALL',
      `Budget of ${options.budget} tokens cannot hold the required sections (${result.tokens} tokens needed).`,
      { details: { budget: options.budget, needed: result.tokens } },
    );
  }
  return result;
}

function capSection(section: Section, counter: TokenCounter): Working {
  const tokens = section.tokens ?? counter.count(section.text);
  const item: Working = { section, text: section.text, tokens, action: 'kept', dropped: false };
  if (section.maxTokens !== undefined && tokens > section.maxTokens) shrink(item, section.maxTokens, counter);
  return item;
}

function canShrink(item: Working): boolean {
  return !item.section.required || item.tokens > minTokens(item.section);
}

function minTokens(section: Section): number {
  return section.minTokens ?? DEFAULT_MIN_SECTION_TOKENS;
}

/** Brings one section down to `target` tokens by its strategy; drops it when that is not possible. */
function shrink(item: Working, target: number, counter: TokenCounter): void {
  if (item.dropped || item.tokens <= target) return;
  const { section } = item;
  const strategy: OverflowStrategy = section.overflow ?? 'trim-tail';
  const floor = minTokens(section);
  if (strategy === 'summarize' && item.action !== 'summarized' && section.summary !== undefined) {
    const summary = typeof section.summary === 'function' ? section.summary() : section.summary;
    const summaryTokens = counter.count(summary);
    if (summaryTokens < item.tokens) {
      item.text = summary;
      item.tokens = summaryTokens;
      item.action = 'summarized';
      if (summaryTokens <= target) return;
    }
  }
  if (strategy === 'drop' || (target < floor && !section.required)) {
    drop(item);
    return;
  }
  const goal = Math.max(target, section.required ? Math.min(floor, item.tokens) : floor);
  const mode = strategy === 'trim-head' || strategy === 'head-tail' ? strategy : 'trim-tail';
  item.text = shrinkText(item.text, goal, mode, counter, item.tokens);
  item.tokens = counter.count(item.text);
  if (item.action === 'kept') item.action = 'trimmed';
  if (item.tokens === 0 && !section.required) drop(item);
}

function drop(item: Working): void {
  item.dropped = true;
  item.text = '';
  item.tokens = 0;
}

function sumTokens(work: readonly Working[], separatorTokens: number): number {
  let sum = 0;
  let kept = 0;
  for (const item of work) {
    if (item.dropped) continue;
    sum += item.tokens;
    kept += 1;
  }
  return sum + Math.max(0, kept - 1) * separatorTokens;
}

function assemble(work: readonly Working[], separator: string, counter: TokenCounter, exact: boolean): PackResult {
  const kept = work.filter((item) => !item.dropped);
  const text = kept.map((item) => item.text).join(separator);
  const tokens = exact ? counter.count(text) : sumTokens(work, counter.count(separator));
  return {
    sections: kept.map((item) => ({ id: item.section.id, text: item.text, tokens: item.tokens, action: item.action })),
    text,
    tokens,
    dropped: work.filter((item) => item.dropped).map((item) => item.section.id),
    trimmed: kept.filter((item) => item.action === 'trimmed').map((item) => item.section.id),
    summarized: kept.filter((item) => item.action === 'summarized').map((item) => item.section.id),
  };
}
