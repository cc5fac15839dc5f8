import { findErrorLines } from './error-lines.js';
import type { ProcessedOutput, ProcessorInput } from './types.js';

/** edit_file: which file and lines changed, a diff count when there is a diff, and any errors. Pure. */
export function processEditFile(input: ProcessorInput): ProcessedOutput {
  const { intent, output } = input;
  const path = intent.path ?? /\[File: (.+?) \(/.exec(output)?.[1] ?? 'file';
  const parts = [`edited ${path}${intent.lines ? ` lines ${intent.lines.start}-${intent.lines.end}` : ''}`];
  const diff = diffStats(output) ?? diffStats(String(input.args.diff ?? input.args.patch ?? ''));
  if (diff) parts.push(`diff: ${diff.files.join(', ')} +${diff.added} -${diff.removed}`);
  const replacing = typeof input.args.new_str === 'string' ? input.args.new_str : undefined;
  if (replacing !== undefined) parts.push(`new text: ${replacing.split('\n').length} lines`);
  const errors = findErrorLines(output);
  if (errors.length > 0) parts.push(`errors: ${errors.slice(-3).join(' | ')}`);
  else {
    const first = output.split('\n').find((l) => l.trim().length > 0 && !l.startsWith('[File:'));
    if (first) parts.push(first.trim().slice(0, 160));
  }
  return { summary: parts.join('\n'), errors: errors.slice(-3) };
}

/** Counts a unified diff's added and removed lines and names its files; undefined when there is no diff. */
export function diffStats(text: string): { files: string[]; added: number; removed: number } | undefined {
  const files = diffPaths(text);
  if (files.length === 0) return undefined;
  let added = 0;
  let removed = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added += 1;
    else if (line.startsWith('-') && !line.startsWith('---')) removed += 1;
  }
  return { files, added, removed };
}

/** Paths named by a unified diff (`diff --git a/x b/x` or `+++ b/x`). */
export function diffPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/^diff --git a\/(\S+) b\/(\S+)/gm)) if (m[2]) found.add(m[2]);
  for (const m of text.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)) if (m[1] && m[1] !== '/dev/null') found.add(m[1]);
  return [...found];
}
