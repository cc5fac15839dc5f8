import { maskSecretsSync } from '../redact/index.js';
import { END_LINE, TRUNCATED_LINE } from './defaults.js';
import { o200kCounter, startsTokenPiece } from '../tokens/index.js';
import { fitTokens } from './fit-tokens.js';
import type { ContextLine, PreContextLimits } from './types.js';

/** Longest single value (error, file list) kept before token fitting; bounds tokenizer work. */
const MAX_VALUE_CHARS = 240;
/** Text masked per value: the kept length plus room for a long token or URL. */
const MASK_WINDOW_CHARS = MAX_VALUE_CHARS + 400;
const NON_ASCII_SPACE = /\s/;
/** Special-token markers: a model server that parses them in prompt text (some local ones do) would read control tokens. */
const SPECIAL_TOKEN = /<\|([^|<>\s]{1,40})\|>/g;

/** Shortens a long path to its last two segments, which name the file best. */
export function shortPath(file: string): string {
  if (file.length <= 48) return file;
  const parts = file.split('/');
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : file;
}

/**
 * The `created` and `modified` lines of a block: the files the attempts created, then the ones
 * they only updated, each once, the first `maxFiles` of each list (none when maxFiles is 0).
 */
export function touchedFileLines(
  attempts: readonly { filesCreated: readonly string[]; filesUpdated: readonly string[] }[],
  maxFiles: number,
  labels: { created: [string, number]; updated: [string, number] },
): ContextLine[] {
  const created: string[] = [];
  const updated: string[] = [];
  for (const a of attempts) {
    for (const f of a.filesCreated) if (!created.includes(f)) created.push(f);
    for (const f of a.filesUpdated) if (!updated.includes(f) && !created.includes(f)) updated.push(f);
  }
  if (maxFiles <= 0) return [];
  const line = (files: string[], [label, priority]: [string, number]): ContextLine[] =>
    files.length > 0 ? [{ text: `${label}: ${cleanValue(files.slice(0, maxFiles).map(shortPath).join(', '))}`, priority, list: true }] : [];
  return [...line(created, labels.created), ...line(updated, labels.updated)];
}

/**
 * Collapses whitespace so one value stays on one line, bounds its length, masks secrets and
 * defuses special-token markers (`<|endoftext|>` becomes `<endoftext>`), which some model
 * servers would read as control tokens in the agent's prompt.
 */
export function cleanValue(value: string): string {
  let flat = hasIrregularSpace(value) ? value.replace(/\s+/g, ' ').trim() : value;
  // Masked before the length cut, with a margin, so a cut never leaves the head of a secret that
  // no longer matches its pattern; a PEM key can be longer than the margin, so it is masked whole.
  if (flat.length > MASK_WINDOW_CHARS && !flat.includes('PRIVATE KEY')) flat = flat.slice(0, MASK_WINDOW_CHARS);
  if (flat.includes('<|')) flat = flat.replace(SPECIAL_TOKEN, '<$1>');
  flat = maskSecretsSync(flat).text;
  return flat.length > MAX_VALUE_CHARS ? flat.slice(0, MAX_VALUE_CHARS).trimEnd() : flat;
}

/** Whitespace other than single inner spaces (one pass, no regex): only such values need flattening. */
function hasIrregularSpace(value: string): boolean {
  const n = value.length;
  if (n === 0) return false;
  if (value.charCodeAt(0) === 32 || value.charCodeAt(n - 1) === 32) return true;
  let space = false;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === 32) {
      if (space) return true;
      space = true;
      continue;
    }
    space = false;
    if (c < 33 ? c >= 9 && c <= 13 : c > 127 && NON_ASCII_SPACE.test(value.charAt(i))) return true;
  }
  return false;
}

/**
 * A block: its `--- TITLE CONTEXT ---` line, `lines`, the closing instruction and END_LINE (all but
 * `lines` fixed), fitted to the hard limits and followed by a blank line: lowest-priority lines go
 * first when over maxLines; over maxTokens the long values are cut and, if still over,
 * budget/packSections drops the lowest-priority lines (see fitTokens).
 */
export function fitBlock(title: string, lines: readonly ContextLine[], closing: string, limits: PreContextLimits): string {
  const fixed = (text: string): ContextLine => ({ text, fixed: true, priority: 100 });
  const kept = fitLines([fixed(`--- ${title} CONTEXT ---`), ...lines, fixed(closing), fixed(END_LINE)], limits.maxLines);
  let block = '';
  for (const line of kept) block += `${line.text}\n`;
  block += '\n';
  // A token is at least one byte, so short text needs no counting.
  if (block.length <= limits.maxTokens && Buffer.byteLength(block) <= limits.maxTokens) return block;
  // Each line is counted once; the sum is the block's count when every line starts a new tokenizer
  // piece (tokens/startsTokenPiece), else the block is counted whole.
  const counts = kept.map((line, i) => o200kCounter.count(i === kept.length - 1 ? `${line.text}\n\n` : `${line.text}\n`));
  const exact = kept.every((line, i) => i === 0 || startsTokenPiece(line.text));
  const total = exact ? counts.reduce((a, b) => a + b, 0) : o200kCounter.count(block);
  if (total <= limits.maxTokens) return block;
  return fitTokens(kept, counts, limits.maxTokens);
}

function fitLines(lines: readonly ContextLine[], maxLines: number): readonly ContextLine[] {
  if (lines.length <= maxLines) return lines;
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
