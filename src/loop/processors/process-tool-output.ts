import type { ToolKind } from '../types.js';
import { processEditFile } from './edit-file.js';
import { findErrorLines } from './error-lines.js';
import { processGrep } from './grep.js';
import { processListDir } from './list-dir.js';
import { firstLines, type Outliner, processReadFile } from './read-file.js';
import { processTerminal } from './terminal.js';
import type { ProcessedOutput, ProcessorInput, ToolProcessor } from './types.js';

/** The built-in processor per tool kind. */
export const DEFAULT_PROCESSORS: Record<ToolKind, ToolProcessor> = {
  read_file: processReadFile,
  edit_file: processEditFile,
  grep: processGrep,
  list_dir: processListDir,
  terminal: processTerminal,
  other: (input) => ({ summary: firstLines(input.output, 4), errors: findErrorLines(input.output).slice(-3) }),
};

/**
 * Summarizes one tool output with the processor for its kind (`processors` overrides built-ins).
 * The summary is empty-safe: an empty output says so. Pure.
 */
export function processToolOutput(
  input: ProcessorInput & { outline?: Outliner },
  processors: Partial<Record<ToolKind, ToolProcessor>> = {},
): ProcessedOutput {
  if (input.output.trim().length === 0) return { summary: '(no output)', errors: [] };
  const kind = input.intent.kind;
  if (kind === 'read_file' && !processors.read_file) return processReadFile(input);
  const processor = processors[kind] ?? DEFAULT_PROCESSORS[kind];
  return processor(input);
}
