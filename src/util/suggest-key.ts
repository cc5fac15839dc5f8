/**
 * The spelling Baton expects for a key it does not know, from the keys it does: the same words in
 * another case style first (`acceptanceCriteria` → `acceptance_criteria`, `max_lines` →
 * `maxLines`, `timeoutMS` → `timeoutMs`), then a longer or shorter form of a key
 * (`workspaceDirectory` → `workspaceDir`), then the nearest key within a couple of typos
 * (`maxLine` → `maxLines`). Undefined when nothing is close.
 *
 * @example
 * suggestKey('acceptanceCriteria', ['id', 'acceptance_criteria']) // 'acceptance_criteria'
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const folded = fold(key);
  const sameWords = known.find((k) => k !== key && fold(k) === folded);
  if (sameWords !== undefined) return sameWords;
  // A longer or shorter spelling of the same name: `workspaceDirectory` for `workspaceDir`.
  const stems = known.filter((k) => {
    const [short, long] = [fold(k), folded].sort((x, y) => x.length - y.length) as [string, string];
    return short.length >= 6 && long.startsWith(short);
  });
  const stem = stems.sort((a, b) => b.length - a.length)[0];
  if (stem !== undefined) return stem;
  const allowed = Math.min(3, Math.ceil(folded.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(folded, fold(candidate));
    if (distance <= allowed && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** Lower case without separators: `max_lines`, `maxLines` and `MAX-LINES` fold alike. */
function fold(key: string): string {
  return key.toLowerCase().replace(/[_\-\s]/g, '');
}

/** Edit distance with swaps of neighbours (`chekc` is one edit from `check`). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
