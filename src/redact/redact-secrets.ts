import { maskSecretsSync } from './mask-secrets-sync.js';
import { redactionMarker } from './secret-patterns.js';
import type { RedactManyResult, RedactResult, RedactValueResult } from './types.js';

/** Texts are linted together up to this many characters per secretlint call. @default 1_000_000 */
export const DEFAULT_BATCH_CHARS = 1_000_000;

// Joins texts of one batch; a blank line keeps line-anchored rules from gluing two texts together.
const BATCH_SEPARATOR = '\n\n';

type LintSource = typeof import('@secretlint/core').lintSource;
type LintConfig = Parameters<LintSource>[0]['options']['config'];

interface Linter {
  lintSource: LintSource;
  config: LintConfig;
}

let linterPromise: Promise<Linter> | undefined;

// Loaded lazily and once: the preset pulls in ~30 rule modules that most CLI commands never need.
function loadLinter(): Promise<Linter> {
  linterPromise ??= (async () => {
    const [{ lintSource }, { creator }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
    ]);
    const config: LintConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
    return { lintSource, config };
  })();
  return linterPromise;
}

/**
 * Masks secrets in a text: first the ranges reported by @secretlint/core with the recommended
 * preset (`[REDACTED:<rule>]`), then whatever `maskSecretsSync` still recognises. Pure apart from
 * loading secretlint once.
 *
 * @example
 * const { text, count } = await redactSecrets(diff);
 */
export async function redactSecrets(text: string): Promise<RedactResult> {
  const { texts, count } = await redactSecretsMany([text]);
  return { text: texts[0] ?? '', count };
}

/**
 * `redactSecrets` for many strings at once: they are linted in a few batched secretlint calls
 * (one call costs about a millisecond however short the text), and returned in input order.
 */
export async function redactSecretsMany(texts: readonly string[], options: { batchChars?: number } = {}): Promise<RedactManyResult> {
  const batchChars = options.batchChars ?? DEFAULT_BATCH_CHARS;
  const out = [...texts];
  let count = 0;
  const linter = await loadLinter();
  let start = 0;
  while (start < texts.length) {
    let end = start;
    let size = 0;
    while (end < texts.length && (end === start || size + (texts[end] ?? '').length <= batchChars)) {
      size += (texts[end] ?? '').length + BATCH_SEPARATOR.length;
      end += 1;
    }
    count += await lintBatch(linter, out, start, end);
    start = end;
  }
  for (let i = 0; i < out.length; i += 1) {
    const masked = maskSecretsSync(out[i] ?? '');
    out[i] = masked.text;
    count += masked.count;
  }
  return { texts: out, count };
}

/**
 * Masks every string inside a JSON-like value (objects, arrays, strings; keys are left alone).
 * Returns a new value; the input is not changed.
 */
export async function redactValue<T>(value: T): Promise<RedactValueResult<T>> {
  const strings: string[] = [];
  collectStrings(value, strings);
  if (strings.length === 0) return { value, count: 0 };
  const { texts, count } = await redactSecretsMany(strings);
  let index = 0;
  const rebuilt = rebuild(value, () => texts[index++] ?? '') as T;
  return { value: rebuilt, count };
}

async function lintBatch(linter: Linter, out: string[], start: number, end: number): Promise<number> {
  const offsets: number[] = [];
  let cursor = 0;
  const pieces: string[] = [];
  for (let i = start; i < end; i += 1) {
    offsets.push(cursor);
    const piece = out[i] ?? '';
    pieces.push(piece);
    cursor += piece.length + BATCH_SEPARATOR.length;
  }
  const content = pieces.join(BATCH_SEPARATOR);
  if (content.trim().length === 0) return 0;
  const result = await linter.lintSource({
    source: { content, filePath: '/baton-redact.txt', contentType: 'text' },
    options: { config: linter.config, noPhysicFilePath: true },
  });
  if (result.messages.length === 0) return 0;
  const perPiece = new Map<number, Array<{ from: number; to: number; kind: string }>>();
  for (const message of result.messages) {
    const [from, to] = message.range;
    for (let p = 0; p < pieces.length; p += 1) {
      const pieceStart = offsets[p] ?? 0;
      const pieceEnd = pieceStart + (pieces[p] ?? '').length;
      if (to <= pieceStart || from >= pieceEnd) continue;
      const ranges = perPiece.get(p) ?? [];
      ranges.push({
        from: Math.max(from, pieceStart) - pieceStart,
        to: Math.min(to, pieceEnd) - pieceStart,
        kind: shortRuleName(message.ruleId),
      });
      perPiece.set(p, ranges);
    }
  }
  let count = 0;
  for (const [p, ranges] of perPiece) {
    const merged = mergeRanges(ranges);
    count += merged.length;
    let text = pieces[p] ?? '';
    for (let r = merged.length - 1; r >= 0; r -= 1) {
      const range = merged[r];
      if (!range) continue;
      text = `${text.slice(0, range.from)}${redactionMarker(range.kind)}${text.slice(range.to)}`;
    }
    out[start + p] = text;
  }
  return count;
}

function shortRuleName(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '').replace(/^secretlint-rule-/, '');
}

function mergeRanges(ranges: Array<{ from: number; to: number; kind: string }>) {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const merged: Array<{ from: number; to: number; kind: string }> = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.from <= last.to) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (isPlainObject(value)) for (const item of Object.values(value)) collectStrings(item, into);
}

function rebuild(value: unknown, next: () => string): unknown {
  if (typeof value === 'string') return next();
  if (Array.isArray(value)) return value.map((item) => rebuild(item, next));
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = rebuild(item, next);
    return copy;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
