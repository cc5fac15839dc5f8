import type { ToolCall, ToolKind } from './types.js';

/** A tool call understood well enough to pick a processor and feed the file tracker. */
export interface ToolIntent {
  kind: ToolKind;
  /** The file or directory the call is about, when it names one. */
  path?: string;
  /** The shell command or text action, when there is one. */
  command?: string;
  /** Line range an edit targets (SWE-agent `edit 12:15`). */
  lines?: { start: number; end: number };
}

const BY_NAME: Record<string, ToolKind> = {
  read_file: 'read_file',
  read: 'read_file',
  view: 'read_file',
  view_file: 'read_file',
  open: 'read_file',
  goto: 'read_file',
  scroll_down: 'read_file',
  scroll_up: 'read_file',
  cat: 'read_file',
  file_read: 'read_file',
  head: 'read_file',
  tail: 'read_file',
  edit_file: 'edit_file',
  edit: 'edit_file',
  write: 'edit_file',
  write_file: 'edit_file',
  create: 'edit_file',
  str_replace: 'edit_file',
  insert: 'edit_file',
  apply_patch: 'edit_file',
  replace: 'edit_file',
  search_replace: 'edit_file',
  file_edit: 'edit_file',
  append: 'edit_file',
  grep: 'grep',
  rg: 'grep',
  codebase_search: 'grep',
  grep_search: 'grep',
  search_dir: 'grep',
  search_file: 'grep',
  find_file: 'grep',
  search: 'grep',
  file_search: 'grep',
  list_dir: 'list_dir',
  ls: 'list_dir',
  list_files: 'list_dir',
  tree: 'list_dir',
  find: 'list_dir',
  bash: 'terminal',
  run: 'terminal',
  shell: 'terminal',
  run_terminal_cmd: 'terminal',
  execute_bash: 'terminal',
  cmd_run: 'terminal',
  terminal: 'terminal',
  execute_command: 'terminal',
  exec: 'terminal',
};

const SHELL_TOOLS = new Set(['bash', 'run', 'shell', 'run_terminal_cmd', 'execute_bash', 'cmd_run', 'terminal', 'execute_command', 'exec']);
const PATH_KEYS = [
  'path',
  'file_path',
  'filepath',
  'filename',
  'file_name',
  'file',
  'target_file',
  'relative_workspace_path',
  'dir',
  'directory',
];
const EDITOR_WRITES = new Set(['create', 'str_replace', 'insert', 'undo_edit', 'write', 'append']);

/**
 * Works out what a tool call does from its name and arguments. Handles structured calls
 * (`read_file {path}`, `str_replace_editor {command, path}`), shell tools (`bash {command}`)
 * and SWE-agent text actions (`open foo.py 40`, `edit 12:15`). Pure.
 */
/** A tool or command name's kind: own keys only (a tool named `constructor` is not Object's). */
function kindByName(name: string): ToolKind | undefined {
  return Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined;
}

export function classifyTool(call: Pick<ToolCall, 'name' | 'args'>): ToolIntent {
  const name = call.name.toLowerCase();
  const command = typeof call.args.command === 'string' ? call.args.command.trim() : undefined;
  const path = pathArg(call.args);
  if (name === 'str_replace_editor' || name === 'edit_tool' || name === 'text_editor') {
    const sub = (command ?? '').toLowerCase();
    return { kind: EDITOR_WRITES.has(sub) ? 'edit_file' : 'read_file', ...(path ? { path } : {}) };
  }
  if (SHELL_TOOLS.has(name) && command) return { ...classifyCommand(command), command };
  const kind = kindByName(name);
  if (kind && command && command.split(/\s+/)[0]?.toLowerCase() === name) {
    // SWE-agent text action: the command repeats the tool name and carries the arguments.
    return { ...classifyCommand(command), command };
  }
  if (kind) return { kind, ...(path ? { path } : {}), ...(command ? { command } : {}) };
  if (command) return { ...classifyCommand(command), command };
  return { kind: 'other', ...(path ? { path } : {}) };
}

function pathArg(args: Record<string, unknown>): string | undefined {
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/** Classifies a shell command or text action by its first word and redirections. */
export function classifyCommand(command: string): ToolIntent {
  const firstLine = command.split('\n')[0] ?? '';
  const words = firstLine.trim().split(/\s+/);
  const verb = (words[0] ?? '').toLowerCase();
  const arg = words
    .slice(1)
    .find((w) => !w.startsWith('-'))
    ?.replace(/^["']|["']$/g, '');
  const edit = /^edit\s+(\d+):(\d+)/.exec(firstLine.trim());
  if (edit) return { kind: 'edit_file', lines: { start: Number(edit[1]), end: Number(edit[2]) } };
  const redirect = /(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?([\w./-]+\.\w+)/.exec(firstLine);
  const sedInPlace = /\bsed\s+-i\S*\s+(?:'[^']*'|"[^"]*"|\S+)\s+["']?([\w./-]+)/.exec(firstLine);
  if (verb === 'create' || verb === 'touch') return { kind: 'edit_file', ...(arg ? { path: arg } : {}) };
  if (sedInPlace?.[1]) return { kind: 'edit_file', path: sedInPlace[1] };
  if (redirect?.[1] && (/^(echo|printf|cat)$/.test(verb) || /\btee\b/.test(firstLine))) {
    return { kind: 'edit_file', path: redirect[1] };
  }
  if (verb === 'sed' && / -n /.test(firstLine)) return { kind: 'read_file', ...(words.at(-1) ? { path: words.at(-1) } : {}) };
  const kind = kindByName(verb);
  if (kind === 'read_file' && (verb === 'goto' || verb.startsWith('scroll'))) return { kind };
  if (kind === 'grep') return { kind };
  if (kind) return { kind, ...(arg ? { path: arg } : {}) };
  return { kind: 'terminal' };
}
