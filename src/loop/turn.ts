import { shrinkText } from '../budget/index.js';
import { o200kCounter, type TokenCounter } from '../tokens/index.js';
import type { ToolIntent } from './classify-tool.js';
import { compactCalls } from './compact-args.js';
import { clipWords, describeToolCall, formatToolCall } from '../vocabulary/index.js';
import { MESSAGE_SEPARATOR, renderMessage } from './render-message.js';
import type { ContextMessage, ToolCall, TurnLevel } from './types.js';

/** A tool result as the manager keeps it: the raw text stays here, the prompt gets a rendering. */
export interface ToolResultRecord {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  intent: ToolIntent;
  raw: string;
  rawId: string;
  summary: string;
  /** The result failed by the framework's flag or a non-zero exit code (sent as failed: `is_error`, `error-text`). */
  isError?: boolean;
  /** A background LLM summary, used instead of `summary` once it has arrived. */
  llmSummary?: string;
  /** Tokens of `raw`, counted once when the recent window shares an allowance. */
  rawTokens?: number;
}

/** One model turn with its tool results, or one user message; the unit that is never split. */
export interface Turn {
  index: number;
  kind: 'assistant' | 'user';
  text: string;
  toolCalls: ToolCall[];
  results: ToolResultRecord[];
  cache: Partial<Record<TurnLevel, Rendered>> & {
    clipped?: { maxTokens: number; rendered: Rendered };
    /** Renderings with the recent window's shared allowance, by share (share-window.ts). */
    shared?: Map<number, Rendered>;
    /** Tokens of the turn with its calls compacted and its outputs empty. */
    bare?: number;
    /** Token counts of the turn's rendered messages, by text (measure's memo). */
    counts?: Map<string, number>;
  };
  /** An LLM summary arrived after the summary rendering was cached; refreshed at the next compaction. */
  summaryStale?: boolean;
}

/** A turn rendered at one level: its messages, their joined text and its token count. */
export interface Rendered {
  messages: ContextMessage[];
  text: string;
  tokens: number;
}

/** The one-line stand-in for a masked tool output; names the tool, its arguments and how to fetch it. */
export function maskedPlaceholder(result: ToolResultRecord): string {
  const call = formatToolCall(result.name, describeToolCall(result.name, result.args));
  const shown = clipWords(call, 160);
  const lines = result.raw.split('\n').length;
  return `[output of ${shown} masked: ${lines} lines; fetch_raw("${result.rawId}") returns it]`;
}

/** Renders a turn at a level, cached on the turn (the cache is cleared when the turn changes). */
export function renderTurn(turn: Turn, level: TurnLevel, counter: TokenCounter): Rendered {
  const cached = turn.cache[level];
  if (cached) return cached;
  const messages = turnMessages(turn, (r) => contentAt(r, level), level !== 'verbatim');
  const rendered = measure(messages, counter, countsOf(turn));
  turn.cache[level] = rendered;
  return rendered;
}

/**
 * The turn verbatim except that each tool output keeps only its head and tail around an omission
 * marker, so the whole turn fits `maxTokens` (a single huge output). Not cached.
 */
export function renderTurnClipped(turn: Turn, maxTokens: number, counter: TokenCounter): Rendered {
  const full = renderTurn(turn, 'verbatim', counter);
  if (full.tokens <= maxTokens || turn.results.length === 0) return full;
  const hit = turn.cache.clipped;
  if (hit && hit.maxTokens === maxTokens) return hit.rendered;
  const shown = withTextFor(turn, maxTokens, counter);
  const fixed = measure(
    turnMessages(shown, () => '', true),
    counter,
  ).tokens;
  const share = Math.max(16, Math.floor((maxTokens - fixed - 8) / turn.results.length));
  const messages = turnMessages(shown, (r) => shrinkText(r.raw, share, 'head-tail', counter), true);
  let rendered = measure(messages, counter);
  if (rendered.tokens > maxTokens) rendered = renderTurn(turn, 'masked', counter);
  turn.cache.clipped = { maxTokens, rendered };
  return rendered;
}

/** Share of a clipped turn its model text may take before it keeps only its head and tail. */
const TEXT_SHARE = 0.25;

/**
 * The turn with its model text cut to head and tail when the text alone would take more than
 * TEXT_SHARE of `maxTokens` (a command with long literals repeated in the prose): the model's own
 * words give way before the newest outputs are masked.
 */
function withTextFor(turn: Turn, maxTokens: number, counter: TokenCounter): Turn {
  const room = Math.max(32, Math.floor(maxTokens * TEXT_SHARE));
  const text = shrinkText(turn.text, room, 'head-tail', counter);
  return text === turn.text ? turn : { ...turn, text };
}

/** The turn's memo of message counts (cleared with the rest of its cache when the turn changes). */
export function countsOf(turn: Turn): Map<string, number> {
  turn.cache.counts ??= new Map();
  return turn.cache.counts;
}

function contentAt(result: ToolResultRecord, level: TurnLevel): string {
  if (level === 'verbatim' || level === 'compact') return result.raw;
  if (level === 'masked') return maskedPlaceholder(result);
  return `${withEnds(result.llmSummary ?? result.summary, result.raw)}\n[summary; fetch_raw("${result.rawId}") returns the full output]`;
}

/** Characters of an output's first or last line a summary shows when it lacks them. @default 160 */
const END_LINE_CHARS = 160;

/** A summary that also shows the output's first and last line (what the output began and ended with). */
function withEnds(summary: string, raw: string): string {
  const lines = raw.split('\n').filter((l) => l.trim().length > 0);
  const first = lines[0]?.trim().slice(0, END_LINE_CHARS);
  const last = lines.length > 1 ? lines.at(-1)?.trim().slice(0, END_LINE_CHARS) : undefined;
  const head = first && !summary.includes(first) ? `${first}\n` : '';
  const tail = last && !summary.includes(last) ? `\n…\n${last}` : '';
  return `${head}${summary}${tail}`;
}

/** The turn's messages, each output as `content` gives it; `compact` shrinks the calls' long arguments (compactArgs). */
export function turnMessages(turn: Turn, content: (r: ToolResultRecord) => string, compact = false): ContextMessage[] {
  if (turn.kind === 'user') return [{ role: 'user', content: turn.text }];
  const calls = compact ? compactCalls(turn.toolCalls) : turn.toolCalls;
  const messages: ContextMessage[] = [{ role: 'assistant', content: turn.text, ...(calls.length ? { toolCalls: calls } : {}) }];
  for (const r of turn.results) {
    messages.push({ role: 'tool', callId: r.callId, name: r.name, content: content(r), ...(r.isError ? { isError: true } : {}) });
  }
  return messages;
}

/**
 * Renders messages and counts the joined text. With `memo` (o200k_base only) each message is
 * counted apart, with the separator after it, and the count is kept: a rendered message starts
 * with its `[role]` header, which starts a new o200k piece after the separator's line break
 * (startsTokenPiece), so the parts add up to the whole exactly, and the same output shown at
 * another level (verbatim, compact, clipped beside a compacted call) is not counted again.
 */
export function measure(messages: ContextMessage[], counter: TokenCounter, memo?: Map<string, number>): Rendered {
  const parts = messages.map(renderMessage);
  const text = parts.join(MESSAGE_SEPARATOR);
  if (!memo || counter.name !== o200kCounter.name || parts.length < 2) return { messages, text, tokens: counter.count(text) };
  let tokens = 0;
  parts.forEach((part, i) => {
    const piece = i < parts.length - 1 ? `${part}${MESSAGE_SEPARATOR}` : part;
    let n = memo.get(piece);
    if (n === undefined) {
      n = counter.count(piece);
      memo.set(piece, n);
    }
    tokens += n;
  });
  return { messages, text, tokens };
}
