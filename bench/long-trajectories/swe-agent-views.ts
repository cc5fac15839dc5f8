/**
 * SWE-agent's command outputs, reproduced from its shell functions (windowed editor with WINDOW=100,
 * OVERLAP=2, goto offset WINDOW/6) and checked against the fixture trajectories. Pure functions of
 * a file's lines.
 */
export const WINDOW = 100;
const OVERLAP = 2;
const OFFSET = Math.floor(WINDOW / 6);

/** `_constrain_line`: the window centre stays between WINDOW/2 and total - WINDOW/2. */
export function constrainLine(line: number, total: number): number {
  return Math.max(Math.min(line, total - WINDOW / 2), WINDOW / 2);
}

/** The centre `open path N` and `goto N` move to. */
export function gotoCentre(line: number, total: number): number {
  return constrainLine(Math.max(line + WINDOW / 2 - OFFSET, 1), total);
}

/** The centre after `scroll_down` (+1) or `scroll_up` (-1). */
export function scrollCentre(current: number, direction: 1 | -1, total: number): number {
  return constrainLine(current + direction * (WINDOW - OVERLAP), total);
}

/** The centre after a successful `edit a:b` (the script keeps the 0-based start line). */
export function editCentre(start: number, total: number): number {
  return constrainLine(start - 1, total);
}

/** `_print`: header, lines-above marker, numbered window, lines-below marker; ends with a newline. */
export function printWindow(absPath: string, lines: readonly string[], current: number): string {
  const total = lines.length;
  const above = Math.max(0, current - WINDOW / 2);
  const below = Math.max(0, total - current - WINDOW / 2);
  const last = Math.min(total, Math.max(current + WINDOW / 2, WINDOW / 2));
  const first = Math.max(1, last - WINDOW + 1);
  const out = [`[File: ${absPath} (${total} lines total)]`];
  if (above > 0) out.push(`(${above} more lines above)`);
  for (let n = first; n <= last; n += 1) out.push(`${n}:${lines[n - 1] ?? ''}`);
  if (below > 0) out.push(`(${below} more lines below)`);
  return `${out.join('\n')}\n`;
}

/** True when the window centred at `current` shows line `n`. */
export function windowShows(total: number, current: number, n: number): boolean {
  const last = Math.min(total, Math.max(current + WINDOW / 2, WINDOW / 2));
  return n <= last && n >= Math.max(1, last - WINDOW + 1);
}

const EDIT_OK =
  'File updated. Please review the changes and make sure they are correct (correct indentation, no duplicate lines, etc). Edit the file again if necessary.';

/** A successful edit: the window around the edit, then the review reminder. */
export function editApplied(absPath: string, lines: readonly string[], start: number): string {
  return `${printWindow(absPath, lines, editCentre(start, lines.length))}${EDIT_OK}\n`;
}

/** The same reminder alone, as a fresh file shows it after its first edit. */
export function editAppliedWhole(absPath: string, lines: readonly string[]): string {
  return `${printWindow(absPath, lines, constrainLine(WINDOW / 2, lines.length))}${EDIT_OK}\n`;
}

function excerpt(absPath: string, lines: readonly string[], first: number, last: number): string {
  const a = Math.max(1, first);
  const b = Math.min(lines.length, last);
  const out = [`[File: ${absPath} (${lines.length} lines total)]`];
  if (a > 1) out.push(`(${a - 1} more lines above)`);
  for (let n = a; n <= b; n += 1) out.push(`${n}:${lines[n - 1] ?? ''}`);
  if (lines.length - b > 0) out.push(`(${lines.length - b} more lines below)`);
  return out.join('\n');
}

/**
 * The linter's refusal: flake8 errors, the edit as it would have looked and the original, as
 * SWE-agent prints them (preview spans start-6..new end+4, original start-5..end+5).
 */
export function editRejected(
  absPath: string,
  original: readonly string[],
  start: number,
  end: number,
  replacement: readonly string[],
  errors: readonly string[],
): string {
  const proposed = [...original.slice(0, start - 1), ...replacement, ...original.slice(end)];
  const rule = '-------------------------------------------------';
  return [
    'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.',
    '',
    'ERRORS:',
    ...errors.map((e) => `- ${e}`),
    '',
    'This is how your edit would have looked if applied',
    rule,
    excerpt(absPath, proposed, start - 6, start + replacement.length - 1 + 4),
    rule,
    '',
    'This is the original code before your edit',
    rule,
    excerpt(absPath, original, start - 5, end + 5),
    rule,
    'Your changes have NOT been applied. Please fix your edit command and try again.',
    'You either need to 1) Specify the correct start/end line arguments or 2) Correct your edit code.',
    'DO NOT re-run the same failed edit command. Running it again will lead to the same error.',
    '',
  ].join('\n');
}

/** `search_file TERM [FILE]`. */
export function searchFile(term: string, absPath: string, lines: readonly string[]): string {
  const hits = lines.map((l, i) => [i + 1, l] as const).filter(([, l]) => l.includes(term));
  if (hits.length === 0) return `No matches found for "${term}" in ${absPath}\n`;
  if (hits.length > 100) return `More than 100 lines matched for "${term}" in ${absPath}. Please narrow your search.\n`;
  return [
    `Found ${hits.length} matches for "${term}" in ${absPath}:`,
    ...hits.map(([n, l]) => `Line ${n}:${l}`),
    `End of matches for "${term}" in ${absPath}`,
    '',
  ].join('\n');
}

/** `search_dir TERM [DIR]` over files given as absolute path and lines. */
export function searchDir(term: string, absDir: string, files: readonly { abs: string; lines: readonly string[] }[]): string {
  const counts = files
    .map((f) => ({ abs: f.abs, n: f.lines.reduce((s, l) => s + countOf(l, term), 0) }))
    .filter((c) => c.n > 0)
    .sort((a, b) => (a.abs < b.abs ? -1 : 1));
  if (counts.length === 0) return `No matches found for "${term}" in ${absDir}\n`;
  if (counts.length > 100) return `More than ${counts.length} files matched for "${term}" in ${absDir}. Please narrow your search.\n`;
  const total = counts.reduce((s, c) => s + c.n, 0);
  return [
    `Found ${total} matches for "${term}" in ${absDir}:`,
    ...counts.map((c) => `${c.abs} (${c.n} matches)`),
    `End of matches for "${term}" in ${absDir}`,
    '',
  ].join('\n');
}

function countOf(line: string, term: string): number {
  let n = 0;
  for (let i = line.indexOf(term); i >= 0; i = line.indexOf(term, i + term.length)) n += 1;
  return n;
}

/** `find_file NAME [DIR]`. */
export function findFile(name: string, absDir: string, matches: readonly string[]): string {
  if (matches.length === 0) return `No matches found for "${name}" in ${absDir}\n`;
  return [`Found ${matches.length} matches for "${name}" in ${absDir}:`, ...matches, ''].join('\n');
}

/** `grep -n PATTERN FILE` for a plain pattern (alternatives joined with \|). */
export function grepN(pattern: string, lines: readonly string[]): string {
  const alternatives = pattern.split('\\|').map((p) => (p.startsWith('^') ? { start: true, text: p.slice(1) } : { start: false, text: p }));
  const out = lines
    .map((l, i) => [i + 1, l] as const)
    .filter(([, l]) => alternatives.some((a) => (a.start ? l.startsWith(a.text) : l.includes(a.text))))
    .map(([n, l]) => `${n}:${l}`);
  return out.length ? `${out.join('\n')}\n` : '';
}
