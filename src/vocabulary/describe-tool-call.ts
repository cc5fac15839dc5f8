import { clipWords, describeShellCommand, shellCommandOf } from './shell-command.js';
import { pathOf, type ToolArgs } from './describe-args.js';
import { TOOL_TABLE, type ToolEntry } from './tool-table.js';
import type { ToolDescription } from './types.js';

/**
 * What a tool call does, from Baton's one table of agent tools (Claude Code, Codex CLI, Gemini CLI,
 * Copilot CLI, OpenHands, SWE-agent): its kind, key argument, the files it reads or changes, the
 * shell command it ran, the plan items it sets and the size of an edit. `args` may be an object,
 * a JSON string, or a text action (SWE-agent `open foo.py 40`, a Codex patch). A tool the table
 * does not know is read from its arguments: a `command` is a shell command, a path a file.
 * Pure; never throws.
 *
 * @example
 * describeToolCall('shell', { command: ['bash', '-lc', 'npm test'] });
 * // { kind: 'shell', key: 'npm test', paths: [], command: 'npm test' }
 */
export function describeToolCall(name: string, args: unknown): ToolDescription {
  const parsed = argsObject(args);
  const entry = entryFor(name);
  if (entry) {
    const { kind, ...rest } = entry.describe(parsed, name.toLowerCase());
    return { kind: kind ?? entry.kind, ...rest, paths: [...new Set(rest.paths.filter((p) => p.length > 0))] };
  }
  const command = shellCommandOf(parsed.command ?? parsed.cmd);
  if (command) return describeShellCommand(command);
  const path = pathOf(parsed);
  const key = path ?? firstShortString(parsed);
  return { kind: 'other', paths: path ? [path] : [], ...(key ? { key } : {}) };
}

/** The table's entry for a name: exact (lower case), else without an MCP or namespace prefix. */
function entryFor(name: string): ToolEntry | undefined {
  const lower = name.toLowerCase();
  if (Object.hasOwn(TOOL_TABLE, lower)) return TOOL_TABLE[lower];
  // `functions.shell`, `default_api:read_file`: the tool's own name after a namespace.
  const bare = /^(?:functions\.|default_api[:.])(\w+)$/.exec(lower)?.[1];
  return bare && Object.hasOwn(TOOL_TABLE, bare) ? TOOL_TABLE[bare] : undefined;
}

/** Arguments as an object: a JSON object string parsed, any other text kept as `{ input }`. */
export function argsObject(args: unknown): ToolArgs {
  if (typeof args === 'string') {
    const text = args.trim();
    if (text.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as ToolArgs;
      } catch {
        // Not JSON: a text action or a patch.
      }
    }
    return { input: args };
  }
  if (Array.isArray(args)) return { command: args };
  return args && typeof args === 'object' ? (args as ToolArgs) : {};
}

function firstShortString(args: ToolArgs): string | undefined {
  for (const value of Object.values(args)) {
    if (typeof value === 'string' && value.trim()) return clipWords(value.trim().split('\n')[0] ?? '', 120);
  }
  return undefined;
}
