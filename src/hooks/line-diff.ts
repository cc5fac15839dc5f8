/** @default 4000: lines compared at most; longer files are shown as replaced whole. */
const MAX_DIFF_LINES = 4_000;

/**
 * A unified-style diff of two texts (`-` removed, `+` added, 2 lines of context around changes),
 * headed by the file name; '' when they are equal. Small files only (settings files): a plain
 * longest-common-subsequence table.
 */
export function lineDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  const ops = a.length * b.length > MAX_DIFF_LINES * MAX_DIFF_LINES ? [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)] : diffOps(a, b);
  const keep = new Set<number>();
  ops.forEach((op, i) => {
    if (op[0] !== ' ') for (let j = Math.max(0, i - 2); j <= Math.min(ops.length - 1, i + 2); j += 1) keep.add(j);
  });
  const lines: string[] = [`--- ${file}${before === '' ? ' (new file)' : ''}`, `+++ ${file}`];
  let skipped = false;
  ops.forEach((op, i) => {
    if (keep.has(i)) {
      lines.push(op);
      skipped = false;
    } else if (!skipped) {
      lines.push('  …');
      skipped = true;
    }
  });
  return `${lines.join('\n')}\n`;
}

function diffOps(a: string[], b: string[]): string[] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      table[i * cols + j] =
        a[i] === b[j] ? (table[(i + 1) * cols + j + 1] ?? 0) + 1 : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
  const ops: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push(` ${a[i]}`);
      i += 1;
      j += 1;
    } else if ((table[(i + 1) * cols + j] ?? 0) >= (table[i * cols + j + 1] ?? 0)) ops.push(`-${a[i++]}`);
    else ops.push(`+${b[j++]}`);
  }
  while (i < a.length) ops.push(`-${a[i++]}`);
  while (j < b.length) ops.push(`+${b[j++]}`);
  return ops;
}
