import { parseFileView } from '../snippets/parse-file-view.js';
import { ERROR_LINE, findErrorLines } from './error-lines.js';
import type { ProcessedOutput, ProcessorInput } from './types.js';

/** Outline entry: a function or class and where it sits. */
export interface OutlineEntry {
  name: string;
  kind: string;
  startLine: number;
  endLine: number;
}

/** Finds definitions in code; the snippet extractor provides one backed by tree-sitter. */
export type Outliner = (path: string, code: string, startLine: number) => OutlineEntry[];

const MAX_OUTLINE = 12;
const MAX_RANGES = 2;
const RANGE_LINES = 6;
/** Error-looking lines of a view (a `raise`, an `except`, an error message) its digest keeps. */
const MAX_SALIENT = 2;
const SALIENT_CHARS = 160;

/**
 * read_file: names the file and the lines shown, outlines the definitions in view, and keeps up
 * to two short ranges that contain identifiers the conversation mentions. Pure.
 */
export function processReadFile(input: ProcessorInput & { outline?: Outliner }): ProcessedOutput {
  const view = parseFileView(input.output, input.intent.path);
  const errors = findErrorLines(input.output).slice(-3);
  if (!view) return { summary: firstLines(input.output, 3), errors };
  const end = view.startLine + view.lines.length - 1;
  const parts = [`${view.path} lines ${view.startLine}-${end}${view.totalLines ? ` of ${view.totalLines}` : ''}`];
  const outline = input.outline?.(view.path, view.lines.join('\n'), view.startLine) ?? [];
  if (outline.length > 0) {
    const shown = outline.slice(0, MAX_OUTLINE).map((o) => `${o.kind} ${o.name} ${o.startLine}-${o.endLine}`);
    parts.push(`outline: ${shown.join('; ')}${outline.length > MAX_OUTLINE ? ` (+${outline.length - MAX_OUTLINE})` : ''}`);
  }
  const ranges = relevantRanges(view.lines, view.startLine, input.relevantTerms);
  parts.push(...ranges, ...salientLines(view.lines, view.startLine, ranges.join('\n')));
  return { summary: parts.join('\n'), errors };
}

/**
 * The view's last error-looking lines (`ERROR_LINE`: where the code raises, catches or reports an
 * error), numbered as shown, that a kept range does not already show: a digest then still says
 * where the file deals with errors once its listing is gone. Pure.
 */
function salientLines(lines: readonly string[], startLine: number, shown: string): string[] {
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < MAX_SALIENT; i -= 1) {
    const line = lines[i] ?? '';
    if (!ERROR_LINE.test(line) || line.trim().length === 0) continue;
    const numbered = `${startLine + i}:${line.length > SALIENT_CHARS ? `${line.slice(0, SALIENT_CHARS)}…` : line}`;
    if (!shown.includes(numbered)) out.unshift(numbered);
  }
  return out;
}

function relevantRanges(lines: readonly string[], startLine: number, terms?: ReadonlySet<string>): string[] {
  if (!terms || terms.size === 0) return [];
  const out: string[] = [];
  let i = 0;
  while (i < lines.length && out.length < MAX_RANGES) {
    const words = (lines[i] ?? '').match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? [];
    if (words.some((w) => terms.has(w))) {
      const from = Math.max(0, i - 1);
      const to = Math.min(lines.length, from + RANGE_LINES);
      out.push(
        lines
          .slice(from, to)
          .map((l, k) => `${startLine + from + k}:${l}`)
          .join('\n'),
      );
      i = to;
    } else i += 1;
  }
  return out;
}

/** The first `n` non-empty lines, each clipped to 160 characters, and how many more there are. Pure. */
export function firstLines(text: string, n: number): string {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  const head = lines.slice(0, n).map((l) => (l.length > 160 ? `${l.slice(0, 160)}…` : l));
  return `${head.join('\n')}${lines.length > n ? `\n(${lines.length - n} more lines)` : ''}`;
}
