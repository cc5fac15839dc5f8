import { packSections, type Section } from '../budget/index.js';
import { encodeTokens, headOfTokens, o200kCounter, startsTokenPiece, truncateToTokens } from '../tokens/index.js';
import { END_LINE } from './defaults.js';
import type { ContextLine } from './fit-context.js';

/** Cut lines keep at least this many tokens, else they are dropped (a stub helps nobody). */
const MIN_CUT_TOKENS = 4;
/** Tries at bringing one cut line under its cap before it is dropped instead. */
const MAX_CUT_TRIES = 8;
/** Fixed lines cached: a few hundred distinct texts (providers, attempt numbers) at most. */
const FIXED_MEMO_SIZE = 512;
const fixedMemo = new Map<string, readonly number[]>();

/**
 * Characters probed per token of a line's share: o200k_base averages about 4 characters per token
 * on English, so a probe this long nearly always holds more tokens than the share it is tested
 * against. A line whose probe does is cut anyway, so the rest of it is never tokenized.
 */
const PROBE_CHARS_PER_TOKEN = 8;

/**
 * A block rendered line by line: each segment is a line with its line break (the last one with
 * the trailing blank line). When every line after the first starts a new tokenizer piece
 * (tokens/startsTokenPiece), the block's token count is exactly the sum of the segment counts,
 * so a line is tokenized once, a cut re-counts only the cut line, and no whole-block count is
 * needed. Otherwise `exact` is false and the joined block is counted whole.
 */
export interface Segments {
  lines: readonly ContextLine[];
  /** Each line's segment text (line plus line break). */
  texts: string[];
  /** The text `ids` encode: the segment, or the probed head of a `partial` line. */
  sources: string[];
  ids: (readonly number[])[];
  /** Tokens of `sources`: exact for whole segments, a probe's count for partial lines. */
  counts: number[];
  /** Long lines tokenized only as far as a probe, which already exceeded their share. */
  partial: boolean[];
  total: number;
  exact: boolean;
}

/**
 * Counts a rendered block line by line (fixed lines cached). Long variable lines are probed
 * (see PROBE_CHARS_PER_TOKEN) in a water-filling order, shortest first; when the probes alone
 * cannot prove the block is over `maxTokens`, they are tokenized whole and `total` is exact.
 */
export function measureSegments(lines: readonly ContextLine[], block: string, maxTokens: number): Segments {
  const n = lines.length;
  const segments: Segments = {
    lines,
    texts: new Array<string>(n),
    sources: new Array<string>(n),
    ids: new Array<readonly number[]>(n),
    counts: new Array<number>(n),
    partial: new Array<boolean>(n).fill(false),
    total: 0,
    exact: true,
  };
  const variable: number[] = [];
  let left = maxTokens;
  for (let i = 0; i < n; i++) {
    const line = lines[i] as ContextLine;
    if (i > 0 && !startsTokenPiece(line.text)) segments.exact = false;
    const text = i === n - 1 ? `${line.text}\n\n` : `${line.text}\n`;
    segments.texts[i] = text;
    if (line.fixed) left -= setIds(segments, i, text, fixedIds(text));
    else variable.push(i);
  }
  variable.sort((a, b) => (lines[a] as ContextLine).text.length - (lines[b] as ContextLine).text.length);
  let anyPartial = false;
  for (let k = 0; k < variable.length; k++) {
    const i = variable[k] as number;
    const share = Math.max(MIN_CUT_TOKENS, Math.floor(left / (variable.length - k)));
    const line = (lines[i] as ContextLine).text;
    const probe = share * PROBE_CHARS_PER_TOKEN;
    if (line.length > probe) {
      const head = line.slice(0, probe);
      const headIds = encodeTokens(head);
      if (headIds.length > share) {
        setIds(segments, i, head, headIds);
        segments.partial[i] = true;
        anyPartial = true;
        left -= share;
        continue;
      }
    }
    left -= Math.min(share, setIds(segments, i, segments.texts[i] as string, encodeTokens(segments.texts[i] as string)));
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += segments.counts[i] as number;
  if (anyPartial && total <= maxTokens) {
    // The probes do not prove an overflow: count the probed lines whole.
    for (let i = 0; i < n; i++) if (segments.partial[i]) completeSegment(segments, i);
    total = 0;
    for (let i = 0; i < n; i++) total += segments.counts[i] as number;
  }
  segments.total = segments.exact ? total : o200kCounter.count(block);
  return segments;
}

function setIds(segments: Segments, i: number, source: string, ids: readonly number[]): number {
  segments.sources[i] = source;
  segments.ids[i] = ids;
  segments.counts[i] = ids.length;
  return ids.length;
}

/** Tokenizes a probed line whole. */
function completeSegment(segments: Segments, i: number): void {
  const text = segments.texts[i] as string;
  setIds(segments, i, text, encodeTokens(text));
  segments.partial[i] = false;
}

/** Fixed lines recur in every block (few distinct texts), so their ids are cached. */
function fixedIds(segment: string): readonly number[] {
  let ids = fixedMemo.get(segment);
  if (ids === undefined) {
    ids = encodeTokens(segment);
    if (fixedMemo.size >= FIXED_MEMO_SIZE) fixedMemo.clear();
    fixedMemo.set(segment, ids);
  }
  return ids;
}

/**
 * Brings a measured block within `maxTokens` and renders it with its trailing blank line: the
 * variable lines are cut to a fair share of the room (one huge error is cut before other lines
 * go), then budget/packSections drops the lowest-priority lines if the cut lines still overflow.
 * The result re-counts to <= maxTokens exactly.
 */
export function fitTokens(segments: Segments, maxTokens: number): string {
  let budget = maxTokens;
  for (let round = 0; round < 4; round++) {
    const packed = packSegments(segments, budget);
    if (!packed) break;
    // Exact segments sum exactly; otherwise the rendered block is counted whole.
    const tokens = segments.exact ? packed.tokens : o200kCounter.count(packed.text);
    if (tokens <= maxTokens) return packed.text;
    budget -= tokens - maxTokens;
  }
  return fixedOnly(segments.lines, maxTokens);
}

function packSegments(segments: Segments, budget: number): { text: string; tokens: number } | undefined {
  const { lines, texts, counts } = segments;
  const last = lines.length - 1;
  let cap: number | undefined;
  for (;;) {
    let fixedTokens = 0;
    const variable: number[] = [];
    for (let i = 0; i <= last; i++) {
      if (lines[i]?.fixed) fixedTokens += counts[i] ?? 0;
      else variable.push(counts[i] ?? 0);
    }
    cap = fairShare(variable, budget - fixedTokens);
    // A probed line is known only up to its probe: one its cap reaches is tokenized whole first.
    let completed = false;
    for (let i = 0; i <= last; i++) {
      if (segments.partial[i] && (cap === undefined || cap >= (counts[i] ?? 0))) {
        completeSegment(segments, i);
        completed = true;
      }
    }
    if (!completed) break;
  }
  const sections: Section[] = [];
  for (let i = 0; i <= last; i++) {
    const line = lines[i] as ContextLine;
    const tokens = counts[i] ?? 0;
    const text = texts[i] as string;
    if (line.fixed) {
      sections.push({ id: String(i), text, priority: 1000, required: true, minTokens: tokens, tokens });
      continue;
    }
    const cut =
      cap !== undefined && tokens > cap
        ? cutLine(line, segments.sources[i] as string, segments.ids[i] ?? [], cap)
        : { text, tokens };
    // Sections are whole segments joined with '' and never trimmed inside the packer (overflow
    // 'drop'), so the packer's sum of section counts stays the exact count of its text.
    if (cut) sections.push({ id: String(i), text: cut.text, priority: line.priority, overflow: 'drop', tokens: cut.tokens });
  }
  try {
    const packed = packSections(sections, { budget: Math.max(1, budget), separator: '', exact: false });
    return { text: packed.text, tokens: packed.tokens };
  } catch {
    return undefined; // the fixed lines alone exceed the budget
  }
}

/**
 * Cuts one variable line (never the last) to at most `cap` tokens with its line break, re-closing
 * a quoted value with `…"`: the segment's ids are sliced (no second encoding) and only the short
 * cut text is counted again, exactly.
 */
function cutLine(line: ContextLine, source: string, ids: readonly number[], cap: number): { text: string; tokens: number } | undefined {
  const suffix = line.quoted ? '…"\n' : '\n';
  let keep = cap - (line.quoted ? 2 : 1);
  for (let tries = 0; tries < MAX_CUT_TRIES && keep > 0; tries++) {
    let head = headOfTokens(source, ids, keep);
    const lineBreak = head.indexOf('\n');
    if (lineBreak >= 0) head = head.slice(0, lineBreak);
    // A cut inside a character leaves U+FFFD or half a surrogate pair.
    head = head.replace(/(?:\uFFFD|[\uD800-\uDBFF])+$/, '');
    head = line.quoted ? head.replace(/["\s]+$/, '') : head.trimEnd();
    // Half a path reads as a real one ("lib/"): a list keeps whole items and marks the rest.
    if (line.list) head = wholeItems(head, source);
    if (head.length === 0) return undefined;
    const text = line.list ? `${head}, …\n` : head + suffix;
    const count = o200kCounter.count(text);
    if (count <= cap) return count >= MIN_CUT_TOKENS ? { text, tokens: count } : undefined;
    keep -= count - cap;
  }
  return undefined;
}

/** The head cut back to the last complete list item (the items follow the line's first ': '); '' when none is. */
function wholeItems(head: string, source: string): string {
  const start = source.indexOf(': ');
  if (start < 0 || head.length <= start + 2) return '';
  const next = source.charAt(head.length);
  if (next === ',' || next === '\n' || next === '') return head;
  const comma = head.lastIndexOf(', ');
  return comma > start ? head.slice(0, comma) : '';
}

/**
 * The largest per-line cap that lets every variable line keep a share (water-filling), so one
 * huge error is cut before the other lines are dropped.
 */
function fairShare(counts: readonly number[], room: number): number | undefined {
  if (counts.length === 0) return undefined;
  const sorted = [...counts].sort((a, b) => a - b);
  let left = room;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    const t = sorted[i] ?? 0;
    if (t > share) return Math.max(MIN_CUT_TOKENS, share);
    left -= t;
  }
  return undefined;
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
