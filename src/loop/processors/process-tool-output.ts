import type { ToolKind } from '../types.js';
import { processEditFile } from './edit-file.js';
import { findErrorLines } from './error-lines.js';
import { processGrep } from './grep.js';
import { processListDir } from './list-dir.js';
import { firstLines, type Outliner, processReadFile } from './read-file.js';
import { processTerminal } from './terminal.js';
import type { ProcessedOutput, ProcessorInput } from './types.js';

/** The built-in processor per tool kind; each is pure, so a summary never changes once shown. */
const PROCESSORS: Record<ToolKind, (input: ProcessorInput & { outline?: Outliner }) => ProcessedOutput> = {
  read_file: processReadFile,
  edit_file: processEditFile,
  grep: processGrep,
  list_dir: processListDir,
  terminal: processTerminal,
  other: (input) => ({ summary: firstLines(input.output, 4), errors: findErrorLines(input.output).slice(-3) }),
};

/**
 * Summarizes one tool output with the processor for its kind (read_file uses `outline`). The
 * summary is empty-safe: an empty output says so. Pure.
 */
export function processToolOutput(input: ProcessorInput & { outline?: Outliner }): ProcessedOutput {
  if (input.output.trim().length === 0) return { summary: '(no output)', errors: [] };
  return PROCESSORS[input.intent.kind](input);
}
