import { packSections, type Section } from '../budget/index.js';
import { encodeTokens, headOfTokens, o200kCounter, truncateToTokens } from '../tokens/index.js';
import { END_LINE } from './defaults.js';
import type { ContextLine } from './types.js';

/*
 * The target is small: at most 10 lines of at most ~260 characters (cleanValue bounds every value),
 * brought under 100 tokens, exactly. So every line is simply tokenized whole, the long values are
 * cut to a fair share of the room, the lowest-priority lines go if that is not enough, and the
 * rendered block is counted once more to prove it fits.
 */

/** Cut lines keep at least this many tokens, else they are dropped (a stub helps nobody). */
const MIN_CUT_TOKENS = 4;
/** Tries at bringing one cut line under its cap before it is dropped instead. */
const MAX_CUT_TRIES = 8;
/** Passes at the whole block: each lowers the budget by what the last one overshot. */
const MAX_ROUNDS = 4;

/**
 * Brings a block that is over `maxTokens` within it and renders it with its trailing blank line.
 * `counts` are each line's tokens with its line break. The variable lines are cut to a fair share of
 * the room (one huge error is cut before other lines go), then budget/packSections drops the
 * lowest-priority lines if the cut lines still overflow. The result re-counts to <= maxTokens.
 */
export function fitTokens(lines: readonly ContextLine[], counts: readonly number[], maxTokens: number): string {
  let budget = maxTokens;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const text = packLines(lines, counts, budget);
    if (text === undefined) break;
    const tokens = o200kCounter.count(text);
    if (tokens <= maxTokens) return text;
    budget -= tokens - maxTokens;
  }
  return fixedOnly(lines, maxTokens);
}

/** One pass: cut the variable lines to the fair cap, then let the packer drop what still overflows. */
function packLines(lines: readonly ContextLine[], counts: readonly number[], budget: number): string | undefined {
  let fixedTokens = 0;
  const variable: number[] = [];
  lines.forEach((line, i) => {
    if (line.fixed) fixedTokens += counts[i] ?? 0;
    else variable.push(counts[i] ?? 0);
  });
  const cap = fairShare(variable, budget - fixedTokens);
  const sections: Section[] = [];
  lines.forEach((line, i) => {
    const tokens = counts[i] ?? 0;
    const text = i === lines.length - 1 ? `${line.text}\n\n` : `${line.text}\n`;
    if (line.fixed) {
      sections.push({ id: String(i), text, priority: 1000, required: true, minTokens: tokens, tokens });
      return;
    }
    const cut = cap !== undefined && tokens > cap ? cutLine(line, cap) : { text, tokens };
    // Whole lines joined with '' and never trimmed inside the packer (overflow 'drop').
    if (cut) sections.push({ id: String(i), text: cut.text, priority: line.priority, overflow: 'drop', tokens: cut.tokens });
  });
  try {
    return packSections(sections, { budget: Math.max(1, budget), separator: '', exact: false }).text;
  } catch {
    return undefined; // the fixed lines alone exceed the budget
  }
}

/**
 * The largest per-line cap that lets every variable line keep a share (water-filling), so one
 * huge error is cut before the other lines are dropped.
 */
function fairShare(counts: readonly number[], room: number): number | undefined {
  const sorted = [...counts].sort((a, b) => a - b);
  let left = room;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    const tokens = sorted[i] ?? 0;
    if (tokens > share) return Math.max(MIN_CUT_TOKENS, share);
    left -= tokens;
  }
  return undefined;
}

/**
 * Cuts one variable line (never the last) to at most `cap` tokens with its line break, re-closing
 * a quoted value with `…"` and keeping whole items of a list (half a path reads as a real one).
 */
function cutLine(line: ContextLine, cap: number): { text: string; tokens: number } | undefined {
  const ids = encodeTokens(line.text);
  const suffix = line.quoted ? '…"\n' : '\n';
  let keep = cap - (line.quoted ? 2 : 1);
  for (let tries = 0; tries < MAX_CUT_TRIES && keep > 0; tries++) {
    // A cut inside a character leaves U+FFFD or half a surrogate pair.
    let head = headOfTokens(line.text, ids, keep).replace(/(?:\uFFFD|[\uD800-\uDBFF])+$/, '');
    head = line.quoted ? head.replace(/["\s]+$/, '') : head.trimEnd();
    if (line.list) head = wholeItems(head, line.text);
    if (head.length === 0) return undefined;
    const text = line.list ? `${head}, …\n` : head + suffix;
    const tokens = o200kCounter.count(text);
    if (tokens <= cap) return tokens >= MIN_CUT_TOKENS ? { text, tokens } : undefined;
    keep -= tokens - cap;
  }
  return undefined;
}

/** The head cut back to the last complete list item (the items follow the line's first ': '); '' when none is. */
function wholeItems(head: string, source: string): string {
  const start = source.indexOf(': ');
  if (start < 0 || head.length <= start + 2) return '';
  const next = source.charAt(head.length);
  if (next === ',' || next === '') return head;
  const comma = head.lastIndexOf(', ');
  return comma > start ? head.slice(0, comma) : '';
}

/** Last resort when the fixed lines alone overflow (an absurdly small maxTokens): keep the head. */
function fixedOnly(lines: readonly ContextLine[], maxTokens: number): string {
  const fixed = lines.filter((l) => l.fixed).map((l) => l.text);
  const text = fixed.at(-1) === END_LINE ? fixed.join('\n') : [...fixed, END_LINE].join('\n');
  for (let keep = maxTokens - 1; keep > 0; keep--) {
    const block = `${truncateToTokens(text, keep, 'head').trimEnd()}\n\n`;
    if (o200kCounter.count(block) <= maxTokens) return block;
  }
  return '';
}
