import { packSections, type Section } from '../budget/index.js';
import { maskSecretsSync } from '../redact/index.js';
import { o200kCounter, truncateToTokens } from '../tokens/index.js';
import type { PreContextLimits } from './types.js';

/** One line of a pre-context block, with how it may give way to the limits. */
export interface ContextLine {
  text: string;
  /** Fixed lines (delimiters, headings, instructions) are never dropped or cut. */
  fixed?: boolean;
  /** Higher survives longer when lines or tokens run out. */
  priority: number;
  /** The line ends with a quoted value that is re-closed when the line is cut. */
  quoted?: boolean;
}

const END_LINE = '--- END CONTEXT ---';
const TRUNCATED_LINE = '--- CONTEXT TRUNCATED ---';
/** Longest single value (error, file list) kept before token fitting; bounds tokenizer work. */
const MAX_VALUE_CHARS = 240;
/** Blocks up to this many bytes per budget token usually fit: count them whole first. */
const LIKELY_FITS_BYTES_PER_TOKEN = 5;

/** Shortens a long path to its last two segments, which name the file best. */
export function shortPath(file: string): string {
  if (file.length <= 48) return file;
  const parts = file.split('/');
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : file;
}

/** Collapses whitespace so one value stays on one line, bounds its length, masks secrets. */
export function cleanValue(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return maskSecretsSync(flat.length > MAX_VALUE_CHARS ? flat.slice(0, MAX_VALUE_CHARS) : flat).text;
}

/**
 * Applies the hard limits to a block and renders it followed by a blank line: lowest-priority
 * lines go first when over maxLines; over maxTokens the lines are packed by budget/packSections,
 * which cuts the long values (errors, file lists) and drops what cannot fit.
 */
export function fitContext(lines: readonly ContextLine[], limits: PreContextLimits): string {
  const kept = fitLines(lines, limits.maxLines);
  const text = kept.map((line) => line.text).join('\n');
  const bytes = Buffer.byteLength(text) + 2;
  // A token is at least one byte, so short text needs no counting (the common, fast path).
  if (bytes <= limits.maxTokens) return `${text}\n\n`;
  if (bytes <= limits.maxTokens * LIKELY_FITS_BYTES_PER_TOKEN) {
    if (o200kCounter.count(`${text}\n\n`) <= limits.maxTokens) return `${text}\n\n`;
    return `${fitTokens(kept, limits.maxTokens)}\n\n`;
  }
  // Probably over: the per-line counts the packer needs anyway decide, one exact count confirms.
  const counts = kept.map((line) => lineTokens(line.text));
  if (counts.reduce((a, b) => a + b, kept.length + 1) <= limits.maxTokens && o200kCounter.count(`${text}\n\n`) <= limits.maxTokens) {
    return `${text}\n\n`;
  }
  return `${fitTokens(kept, limits.maxTokens, counts)}\n\n`;
}

function fitLines(lines: readonly ContextLine[], maxLines: number): ContextLine[] {
  const kept = [...lines];
  while (kept.length > maxLines) {
    let victim = -1;
    for (let i = 0; i < kept.length; i++) {
      const line = kept[i];
      if (line && !line.fixed && (victim < 0 || line.priority < (kept[victim]?.priority ?? 0))) victim = i;
    }
    if (victim < 0) break;
    kept.splice(victim, 1);
  }
  if (kept.length > maxLines) {
    // Only fixed lines are left and they still do not fit: keep the head, mark the cut.
    return [...kept.slice(0, maxLines - 1), { text: TRUNCATED_LINE, fixed: true, priority: 0 }];
  }
  return kept;
}

function fitTokens(lines: readonly ContextLine[], maxTokens: number, known?: readonly number[]): string {
  const counts = known ?? lines.map((line) => lineTokens(line.text));
  // Room for the blank line and for re-closing cut quotes.
  let budget = maxTokens - 1 - lines.filter((l) => l.quoted).length * 2;
  for (let round = 0; round < 4; round++) {
    const text = packLines(lines, counts, budget);
    const tokens = o200kCounter.count(`${text}\n\n`);
    if (tokens <= maxTokens) return text;
    budget -= tokens - maxTokens;
  }
  // Fixed lines alone exceed the budget (absurdly small maxTokens): last resort keeps the head.
  return truncateToTokens(fixedOnly(lines), maxTokens - 1, 'head');
}

/**
 * Line token counts, memoized: delimiters and instructions repeat in every block, and one
 * attempt's errors and file lists recur across the switch, retry and helper blocks.
 */
const lineTokenMemo = new Map<string, number>();
const LINE_MEMO_SIZE = 2048;

function lineTokens(text: string): number {
  let tokens = lineTokenMemo.get(text);
  if (tokens === undefined) {
    tokens = o200kCounter.count(text);
    if (lineTokenMemo.size >= LINE_MEMO_SIZE) lineTokenMemo.clear();
    lineTokenMemo.set(text, tokens);
  }
  return tokens;
}

function packLines(lines: readonly ContextLine[], counts: readonly number[], budget: number): string {
  const fixedTokens = lines.reduce((sum, line, i) => sum + (line.fixed ? (counts[i] ?? 0) + 1 : 0), 0);
  const cap = fairShare(
    counts.filter((_, i) => !lines[i]?.fixed),
    budget - fixedTokens,
  );
  const sections: Section[] = lines.map((line, i) => {
    const tokens = counts[i] ?? 0;
    return line.fixed
      ? { id: String(i), text: line.text, priority: 1000, required: true, minTokens: tokens, tokens }
      : { id: String(i), text: line.text, priority: line.priority, minTokens: 4, overflow: 'trim-tail', tokens, maxTokens: cap };
  });
  let packed: ReturnType<typeof packSections>;
  try {
    // exact: false because fitTokens re-counts the rendered block itself (one count, not two).
    packed = packSections(sections, { budget: Math.max(1, budget), separator: '\n', exact: false });
  } catch {
    return fixedOnly(lines);
  }
  return packed.sections
    .map((s) => {
      const line = lines[Number(s.id)];
      if (s.action === 'kept' || !line?.quoted) return s.text;
      return `${s.text.replace(/["\s]+$/, '')}…"`;
    })
    .join('\n');
}

/**
 * The largest per-line cap that lets every variable line keep a share (water-filling), so one
 * huge error is cut before the other lines are dropped.
 */
function fairShare(counts: readonly number[], room: number): number | undefined {
  if (counts.length === 0) return undefined;
  const sorted = [...counts].sort((a, b) => a - b);
  let left = room - sorted.length; // newline per line
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    const t = sorted[i] ?? 0;
    if (t > share) return Math.max(4, share);
    left -= t;
  }
  return undefined;
}

function fixedOnly(lines: readonly ContextLine[]): string {
  const fixed = lines.filter((l) => l.fixed).map((l) => l.text);
  return fixed.at(-1) === END_LINE ? fixed.join('\n') : [...fixed, END_LINE].join('\n');
}

export { END_LINE };
