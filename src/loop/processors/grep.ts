import { findErrorLines } from './error-lines.js';
import type { ProcessedOutput, ProcessorInput } from './types.js';

const TOP_FILES = 5;
const TOP_MATCHES = 5;
const MATCH = /^([^\s:][^:]*?):(\d+):(.*)$/;

/** grep and code search: match and file counts, the files with most matches, the first matches. Pure. */
export function processGrep(input: ProcessorInput): ProcessedOutput {
  const lines = input.output.split('\n').map((l) => l.replace(/\r$/, ''));
  const perFile = new Map<string, number>();
  const matches: string[] = [];
  for (const line of lines) {
    const m = MATCH.exec(line);
    if (m?.[1]) {
      perFile.set(m[1], (perFile.get(m[1]) ?? 0) + 1);
      matches.push(line.length > 160 ? `${line.slice(0, 160)}…` : line);
    } else if (/^\S.*\s\(\d+ matches?\)$/.test(line.trim())) {
      // SWE-agent search_dir lists "path (N matches)".
      const [, file, n] = /^(.*)\s\((\d+) matches?\)$/.exec(line.trim()) ?? [];
      if (file && n) perFile.set(file, Number(n));
    } else if (/^\/?[\w.-]+(\/[\w.-]+)+$/.test(line.trim())) {
      perFile.set(line.trim(), perFile.get(line.trim()) ?? 1);
    }
  }
  const header = /Found (\d+) matches?/.exec(input.output)?.[0];
  const total = [...perFile.values()].reduce((a, b) => a + b, 0);
  const top = [...perFile.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP_FILES);
  const parts = [header ?? `${total} matches in ${perFile.size} files`];
  if (top.length > 0) parts.push(`top files: ${top.map(([f, n]) => `${f} (${n})`).join(', ')}`);
  if (matches.length > 0) parts.push(matches.slice(0, TOP_MATCHES).join('\n'));
  if (perFile.size === 0 && matches.length === 0)
    parts.push(
      lines
        .filter((l) => l.trim())
        .slice(0, 2)
        .join('\n'),
    );
  return { summary: parts.join('\n'), errors: findErrorLines(input.output).slice(-3) };
}
