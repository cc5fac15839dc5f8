import { REDACTION_MARKER, SECRET_PATTERNS, SECRET_PREFILTER } from './secret-patterns.js';
import type { SecretPattern, SecretRange } from './types.js';

interface Found extends SecretRange {
  /** Index of the rule in SECRET_PATTERNS: lower is more specific. */
  rank: number;
}

/**
 * Where the secrets of a text are, each once: every rule of SECRET_PATTERNS runs on the original
 * text, overlapping findings merge into one range under the most specific rule's kind, and text
 * inside an existing `[REDACTED:…]` marker is never found again. Sorted by position; pure.
 *
 * Masking each rule's findings one after the other instead re-masked the first rule's marker as
 * the next one's secret (`[REDACTED:[REDACTED:url-credentials]`, issue 34).
 *
 * Cost (issue 37): SECRET_PREFILTER skips a text no rule can match in one scan, and each rule's
 * `gate` (a literal the rule needs) skips the rules a text cannot match: the token rules share one
 * gate, and the costly assignment and URL rules run only on text holding a secret word before an
 * operator, or `://user:pass@`. The gates only skip work: the findings are those of every rule.
 */
export function findSecrets(text: string): SecretRange[] {
  if (text.length === 0 || !SECRET_PREFILTER.test(text)) return [];
  const markers = text.includes('[REDACTED:') ? [...text.matchAll(REDACTION_MARKER)].map((m) => [m.index, m.index + m[0].length]) : [];
  const found: Found[] = [];
  const gates = new Map<RegExp, boolean>();
  SECRET_PATTERNS.forEach((pattern, rank) => {
    if (pattern.gate && !passes(pattern.gate, text, gates)) return;
    for (const match of text.matchAll(pattern.regex)) {
      const range = rangeOf(match, pattern);
      if (!range || range.to <= range.from) continue;
      if (markers.some(([from = 0, to = 0]) => range.from < to && from < range.to)) continue;
      found.push({ ...range, kind: pattern.kind, rank });
    }
  });
  return merge(found);
}

/** A gate's verdict on the text, computed once per text however many rules share it. */
function passes(gate: RegExp, text: string, seen: Map<RegExp, boolean>): boolean {
  let verdict = seen.get(gate);
  if (verdict === undefined) {
    verdict = gate.test(text);
    seen.set(gate, verdict);
  }
  return verdict;
}

function rangeOf(match: RegExpExecArray | RegExpMatchArray, pattern: SecretPattern): { from: number; to: number } | undefined {
  const groups = match.groups ?? {};
  if (pattern.accept && !pattern.accept(groups)) return undefined;
  const indices = (match as RegExpExecArray).indices?.groups;
  const group = indices?.secret ?? indices?.secret2;
  if (group) return { from: group[0], to: group[1] };
  const from = match.index ?? 0;
  return { from, to: from + match[0].length };
}

function merge(found: Found[]): SecretRange[] {
  found.sort((a, b) => a.from - b.from || b.to - a.to || a.rank - b.rank);
  const merged: Found[] = [];
  for (const range of found) {
    const last = merged[merged.length - 1];
    if (!last || range.from >= last.to) {
      merged.push({ ...range });
      continue;
    }
    last.to = Math.max(last.to, range.to);
    if (range.rank < last.rank) Object.assign(last, { kind: range.kind, rank: range.rank });
  }
  return merged.map(({ from, to, kind }) => ({ from, to, kind }));
}
