/** A window of a file as a tool showed it. */
export interface FileView {
  path: string;
  /** 1-based line number of `lines[0]`. */
  startLine: number;
  lines: string[];
  totalLines?: number;
}

const SWE_HEADER = /\[File: (.+?) \((\d+) lines total\)\]/;
const CAT_N_HEADER = /running `cat -n` on (\S+?):?\s*$/m;
const NUMBERED = /^\s*(\d+)(?::|\t|\s\|)(.*)$/;

/**
 * Recognises a file shown by a tool: SWE-agent's `[File: path (N lines total)]` window with
 * `12:` prefixes, `cat -n` output, or plain content when the call named the path. Line numbers
 * are stripped so the code parses. Returns undefined when the output is not a file view. Pure.
 */
export function parseFileView(output: string, hintPath?: string): FileView | undefined {
  const swe = SWE_HEADER.exec(output);
  const catN = swe ? null : CAT_N_HEADER.exec(output);
  const path = swe?.[1] ?? catN?.[1] ?? hintPath;
  if (!path) return undefined;
  const rows = output.split('\n');
  const numbered: { n: number; text: string }[] = [];
  let candidates = 0;
  for (const row of rows) {
    if (row.trim().length === 0 || row.startsWith('[File:') || /^\(\d+ more lines (above|below)\)/.test(row)) continue;
    candidates += 1;
    const m = NUMBERED.exec(row.replace(/\r$/, ''));
    if (m) numbered.push({ n: Number(m[1]), text: m[2] ?? '' });
  }
  const totalLines = swe ? Number(swe[2]) : undefined;
  if (numbered.length > 0 && numbered.length >= candidates * 0.6) {
    const first = numbered[0] as { n: number };
    const lines: string[] = [];
    for (const row of numbered) {
      // Windows are contiguous; a jump means a second listing, which we do not merge.
      if (row.n !== first.n + lines.length) break;
      lines.push(row.text);
    }
    return { path, startLine: first.n, lines, ...(totalLines !== undefined ? { totalLines } : {}) };
  }
  if (swe || catN || !hintPath) return undefined;
  const lines = output.replace(/\r/g, '').split('\n');
  return { path, startLine: 1, lines, totalLines: lines.length };
}
