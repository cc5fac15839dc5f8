import { describeShellCommand, describeToolCall, TOOL_TABLE, type ToolDescription } from '../vocabulary/index.js';
import type { ToolCall, ToolKind } from './types.js';

/** A tool call understood well enough to pick a processor and feed the file tracker. */
export interface ToolIntent {
  kind: ToolKind;
  /** The file or directory the call is about, when it names one. */
  path?: string;
  /** The shell command, when the call ran one. */
  command?: string;
  /** Line range an edit targets (SWE-agent `edit 12:15`). */
  lines?: { start: number; end: number };
}

/**
 * The loop's processor kind for a call as the vocabulary describes it (src/vocabulary's one tool
 * table): editor reads, edits and writes, searches and listings, shells (files printed by a shell
 * included); plans, web calls, sub-agents and the rest are `other`. Pure.
 */
export function intentOf(d: ToolDescription): ToolIntent {
  const kind = loopKind(d);
  const path = d.paths[0];
  return {
    kind,
    ...(path ? { path } : {}),
    ...(d.command ? { command: d.command } : {}),
    ...(d.lines ? { lines: d.lines } : {}),
  };
}

function loopKind(d: ToolDescription): ToolKind {
  switch (d.kind) {
    case 'read':
      // A file printed by a shell (`cat`, `sed -n`, `head`) is plain text, not an editor's view:
      // its first and last lines and error lines (the terminal processor) say more per token than an outline.
      return d.command ? 'terminal' : 'read_file';
    case 'edit':
    case 'write':
      return 'edit_file';
    case 'search':
      return d.listing ? 'list_dir' : 'grep';
    case 'shell':
      return 'terminal';
    default:
      return 'other';
  }
}

/**
 * Works out what a tool call does from its name and arguments, through the vocabulary's table
 * (Claude Code, Codex CLI, Gemini CLI, Copilot CLI, OpenHands, SWE-agent text actions such as
 * `open foo.py 40` and `edit 12:15`); a tool the table does not know is read from its arguments
 * (a `command` is a shell command). Pure.
 */
export function classifyTool(call: Pick<ToolCall, 'name' | 'args'>): ToolIntent {
  return intentOf(describeToolCall(call.name, call.args));
}

/**
 * Classifies a shell command or SWE-agent text action by its words: a text action (`edit 12:15`,
 * `open a.py`) by the table's entry for its first word, anything else as a shell command. Pure.
 */
export function classifyCommand(command: string): ToolIntent {
  const verb = (command.trim().split(/\s+/)[0] ?? '').toLowerCase();
  const d = Object.hasOwn(TOOL_TABLE, verb) ? describeToolCall(verb, { command }) : describeShellCommand(command);
  const { command: _command, ...intent } = intentOf(d);
  return intent;
}
