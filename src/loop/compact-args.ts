import { keyOfCommand } from '../vocabulary/index.js';
import type { ToolCall } from './types.js';

/** A string argument longer than this (or over COMPACT_MAX_LINES lines) shrinks. @default 160 */
export const COMPACT_MAX_CHARS = 160;
/** @default 3 */
const COMPACT_MAX_LINES = 3;

/**
 * An old call's arguments, shrunk: every long string (an Edit's old and new text, a Write's
 * content, a heredoc) becomes its first line and its size (`def f(): … [12 lines]`), short ones
 * (paths, patterns, one-line commands) stay whole, so the call still names what it did. Nested
 * objects and arrays shrink the same way. Pure.
 *
 * @example
 * compactArgs({ file_path: 'src/a.py', old_string: 'a\nb\nc\nd', new_string: 'x' });
 * // { file_path: 'src/a.py', old_string: 'a … [4 lines]', new_string: 'x' }
 */
export function compactArgs(args: Record<string, unknown>): Record<string, unknown> {
  return compactValue(args) as Record<string, unknown>;
}

function compactValue(value: unknown): unknown {
  if (typeof value === 'string') return compactString(value);
  if (Array.isArray(value)) return value.map(compactValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, compactValue(v)]));
  }
  return value;
}

function compactString(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n').length;
  if (text.length <= COMPACT_MAX_CHARS && lines <= COMPACT_MAX_LINES) return text;
  return `${keyOfCommand(text)} [${lines} line${lines === 1 ? '' : 's'}]`;
}

/** The calls with their arguments compacted (same ids and names, so results still pair with them). */
export function compactCalls(calls: readonly ToolCall[]): ToolCall[] {
  return calls.map((c) => ({ ...c, args: compactArgs(c.args) }));
}
