import { findErrorLines } from './error-lines.js';
import type { ProcessedOutput, ProcessorInput } from './types.js';

const HEAD = 3;
const TAIL = 3;
const MAX_ERRORS = 3;
const MAX_LINE = 200;

/** Terminal commands: exit code, the first and last lines, and the error lines. Pure. */
export function processTerminal(input: ProcessorInput): ProcessedOutput {
  const lines = input.output
    .split('\n')
    .map((l) => clip(l.replace(/\r$/, '')))
    .filter((l) => l.trim().length > 0);
  const errors = findErrorLines(input.output);
  const parts = [`${lines.length} lines${input.exitCode !== undefined ? `, exit ${input.exitCode}` : ''}`];
  if (lines.length <= HEAD + TAIL) parts.push(...lines);
  else parts.push(...lines.slice(0, HEAD), `[... ${lines.length - HEAD - TAIL} lines ...]`, ...lines.slice(-TAIL));
  const shown = new Set(parts);
  const extra = errors.slice(-MAX_ERRORS).filter((e) => !shown.has(clip(e)));
  if (extra.length > 0) parts.push(`errors: ${extra.map(clip).join(' | ')}`);
  return { summary: parts.join('\n'), errors: errors.slice(-MAX_ERRORS) };
}

function clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}
