/** How each family of tools reads its arguments (the table's describers). Pure. */
import { summarizePatch } from './patch-paths.js';
import { planListOf, taskPlanChange } from './plan-items.js';
import { clipWords, describeShellCommand, keyOfCommand, shellCommandOf } from './shell-command.js';
import type { ToolDescription, ToolKind } from './types.js';

/** Tool arguments as an object (a JSON string parsed; any other text kept as `input`). */
export type ToolArgs = Record<string, unknown>;

/** What a describer returns: the description, with `kind` only where the call overrides its entry's. */
export type Described = Omit<ToolDescription, 'kind'> & { kind?: ToolKind };

const PATH_KEYS = [
  'file_path',
  'filePath',
  'absolute_path',
  'path',
  'notebook_path',
  'filepath',
  'filename',
  'file_name',
  'file',
  'target_file',
  'dir_path',
  'directory',
  'dir',
];

export function pathCall(args: ToolArgs): Described {
  const path = pathOf(args);
  return { paths: path ? [path] : [], ...(path ? { key: path } : {}) };
}

export function manyPaths(args: ToolArgs): Described {
  const paths = Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === 'string') : [];
  return { paths, ...(paths.length ? { key: clipWords(paths.join(', '), 160) } : {}) };
}

export function editCall(args: ToolArgs, name: string): Described {
  const action = textActionOf(args, name);
  if (action !== undefined) return sweEdit(action, name);
  const removed = lineCount(args.old_string ?? args.old_str ?? args.oldString);
  const added = lineCount(args.new_string ?? args.new_str ?? args.newString ?? args.content ?? args.text);
  return { ...pathCall(args), ...(removed + added > 0 ? { change: { removed, added } } : {}) };
}

/** SWE-agent `edit 12:15\n...\nend_of_edit`, `insert 12\n...`, `create file.py`: on the open file or the named one. */
export function sweEdit(action: string, name: string): Described {
  const range = /^(?:edit|insert)\s+(\d+)(?::(\d+))?/.exec(action);
  const body = action
    .split('\n')
    .slice(1)
    .filter((l) => !/^end_of_(edit|insert)$/.test(l.trim()));
  const lines = range ? { start: Number(range[1]), end: Number(range[2] ?? range[1]) } : undefined;
  const removed = lines && name === 'edit' ? lines.end - lines.start + 1 : 0;
  return {
    paths: [],
    key: keyOfCommand(action),
    ...(lines ? { lines, change: { removed, added: body.length } } : {}),
  };
}

export function multiEdit(args: ToolArgs): Described {
  let removed = 0;
  let added = 0;
  for (const e of Array.isArray(args.edits) ? args.edits : []) {
    const edit = (e ?? {}) as ToolArgs;
    removed += lineCount(edit.old_string);
    added += lineCount(edit.new_string);
  }
  return { ...pathCall(args), change: { removed, added } };
}

export function notebookEdit(args: ToolArgs): Described {
  const removed = args.edit_mode === 'delete' ? 1 : 0;
  return { ...pathCall(args), change: { removed, added: lineCount(args.new_source) } };
}

/** `str_replace_editor {command: view|create|str_replace|insert|undo_edit, path}`: a read for `view`. */
export function editorCall(args: ToolArgs): Described {
  const sub = typeof args.command === 'string' ? args.command.toLowerCase() : '';
  const base = pathCall(args);
  if (sub === 'view') return { ...base, kind: 'read' };
  if (sub === 'create') return { ...base, kind: 'write', change: { removed: 0, added: lineCount(args.file_text) } };
  return { ...base, change: { removed: lineCount(args.old_str), added: lineCount(args.new_str) } };
}

export function patchCall(args: ToolArgs): Described {
  const text = [args.input, args.patch, args.diff, args.command].find((v): v is string => typeof v === 'string') ?? '';
  const patch = summarizePatch(text);
  if (!patch) return { paths: [] };
  return { kind: patch.kind, paths: patch.paths, key: clipWords(patch.paths.join(', '), 160), change: patch.change };
}

export function writeCall(args: ToolArgs, name: string): Described {
  const action = textActionOf(args, name);
  if (action !== undefined) {
    const path = action.split(/\s+/)[1];
    return { paths: path ? [path] : [], key: path ?? keyOfCommand(action) };
  }
  return { ...pathCall(args), change: { removed: 0, added: lineCount(args.content ?? args.file_text ?? args.text) } };
}

export function shellCall(args: ToolArgs): Described {
  const action = args.action && typeof args.action === 'object' ? (args.action as ToolArgs) : undefined;
  const command = shellCommandOf(args.command ?? args.cmd ?? action?.command ?? args.input);
  if (!command) return { paths: [] };
  return describeShellCommand(command);
}

export function codeCall(args: ToolArgs): Described {
  const code = typeof args.code === 'string' ? args.code : '';
  return code ? { paths: [], key: keyOfCommand(code), command: code } : { paths: [] };
}

/** Input to a running process (Codex write_stdin, Copilot write_bash/read_bash). */
export function sessionInput(args: ToolArgs, name: string): Described {
  const session = args.session_id ?? args.sessionId ?? args.shell_id ?? args.bash_id;
  const chars = typeof args.chars === 'string' ? args.chars : typeof args.input === 'string' ? args.input : '';
  const target = session === undefined ? name : `${name} ${String(session)}`;
  return { paths: [], key: chars.trim() ? `${target}: ${clipWords(chars.trim(), 80)}` : target };
}

export function searchCall(args: ToolArgs): Described {
  const pattern = [args.pattern, args.query, args.regex, args.glob].find((v): v is string => typeof v === 'string');
  const where = pathOf(args);
  const key = pattern ? `${pattern}${where ? ` in ${where}` : ''}` : where;
  return { paths: where ? [where] : [], ...(key ? { key: clipWords(key, 160) } : {}) };
}

/** SWE-agent `search_dir TERM [DIR]`, `find_file NAME [DIR]`, or their function-calling form. */
export function textSearch(args: ToolArgs, name: string): Described {
  const action = textActionOf(args, name);
  if (action !== undefined) return { paths: [], key: keyOfCommand(action.slice(name.length).trim()) };
  const pattern = [args.search_term, args.file_name, args.pattern].find((v): v is string => typeof v === 'string');
  const where = typeof args.dir === 'string' ? args.dir : undefined;
  const key = pattern ? `${pattern}${where ? ` in ${where}` : ''}` : where;
  return { paths: where ? [where] : [], ...(key ? { key } : {}) };
}

export function listCall(args: ToolArgs): Described {
  return { listing: true, ...pathCall(args) };
}

export function planCall(value: unknown): Described {
  const plan = planListOf(value);
  if (!plan) return { paths: [] };
  const open = plan.filter((i) => i.status !== 'completed').length;
  return { paths: [], plan, planMode: 'replace', key: `${plan.length} items, ${open} open` };
}

export function taskPlanCall(args: ToolArgs, name: string): Described {
  const change = taskPlanChange(name, args);
  if (!change) return { paths: [] };
  const item = change.plan[0];
  const key = change.planMode === 'add' ? item?.text : `#${item?.id ?? '?'} ${item?.status ?? ''}`.trim();
  return { paths: [], ...change, ...(key ? { key: clipWords(key, 160) } : {}) };
}

export function webCall(args: ToolArgs): Described {
  return keyed(firstLineOf([args.url, args.query, args.prompt, args.q].find((v) => typeof v === 'string')));
}

export function subAgent(args: ToolArgs): Described {
  return keyed(firstLineOf([args.description, args.subagent_type, args.prompt, args.agent_name].find((v) => typeof v === 'string')));
}

/** SWE-agent text actions (`open foo.py 40`): the key is the action's first line, the path its first argument. */
export function textAction(args: ToolArgs, name: string): Described {
  const action = textActionOf(args, name);
  if (action === undefined) return pathCall(args);
  const path = name === 'open' ? action.split(/\s+/)[1]?.replace(/^["']|["']$/g, '') : undefined;
  return { paths: path ? [path] : [], key: keyOfCommand(action) };
}

/** The text of a SWE-agent action when the arguments are one (`{command: "edit 1:3\n..."}` for tool `edit`). */
export function textActionOf(args: ToolArgs, name: string): string | undefined {
  const text = typeof args.command === 'string' ? args.command : typeof args.input === 'string' ? args.input : undefined;
  if (text === undefined) return undefined;
  const first = text.trimStart().split(/\s+/)[0]?.toLowerCase();
  return first === name.toLowerCase() ? text.trim() : undefined;
}

export function askUser(args: ToolArgs): Described {
  const first = Array.isArray(args.questions) ? (args.questions[0] as ToolArgs | undefined) : undefined;
  return keyed(firstLineOf(first?.question ?? first?.header ?? args.question));
}

export function keyed(value: unknown): Described {
  return typeof value === 'string' && value.trim() ? { paths: [], key: clipWords(value.trim(), 160) } : { paths: [] };
}

export function firstLineOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = value.split('\n').find((l) => l.trim().length > 0);
  return line?.replace(/^#+\s*/, '').trim();
}

/** The first path-like argument (file_path, absolute_path, path, notebook_path ...). */
export function pathOf(args: ToolArgs): string | undefined {
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

export function lineCount(value: unknown): number {
  if (typeof value !== 'string' || value.length === 0) return 0;
  return value.replace(/\n$/, '').split('\n').length;
}
